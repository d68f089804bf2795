import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { createToken, startStandaloneApi, type GraphqlError, type RunningApi } from './support/standalone-api';
import { SEND_MESSAGE, sendAndSettle } from './support/queries';

const root = path.resolve(__dirname, '../../..');

interface Answer {
  name: string;
  status: number;
  codes: Array<string | undefined>;
  data: unknown;
  stacks: number;
  messages: string[];
}

/**
 * Anything in a response that reads like a stack trace: Apollo's `extensions.stacktrace`, a V8
 * frame (`at fn (file:line:col)`), or this checkout's absolute path.
 */
function stackSigns(text: string, errors: GraphqlError[]): number {
  const fields = errors.filter((e) => e.extensions?.stacktrace !== undefined).length;
  const frames = (text.match(/\bat [^\s"]+ \([^)]*:\d+:\d+\)|\bat \/[^\s"]+:\d+:\d+/g) ?? []).length;
  return fields + frames + (text.includes(root) ? 1 : 0);
}

async function answer(name: string, response: Response): Promise<Answer> {
  const text = await response.text();
  let body: { data?: unknown; errors?: GraphqlError[] } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not JSON: no typed code, which the assertion below reports with the name of the case.
  }
  const errors = body.errors ?? [];
  // A failed nullable root field reads `{ field: null }`: nothing was returned either way.
  const nothing = body.data == null || Object.values(body.data).every((v) => v === null);
  return {
    name,
    status: response.status,
    codes: errors.map((e) => e.extensions?.code),
    data: nothing ? null : body.data,
    stacks: stackSigns(text, errors),
    messages: errors.map((e) => e.message),
  };
}

const ofTypes = (levels: number): string => (levels === 0 ? 'name' : `ofType { ${ofTypes(levels - 1)} }`);
const UNKNOWN_TASK = 'mutation { stopTask(taskId: "00000000-0000-4000-8000-000000000000") { taskId } }';

type Mode = 'development' | 'production';

/** The probes, each with the status and code it must be refused with in `mode`. */
function abuseSet(
  api: RunningApi,
  token: string,
  mode: Mode,
): Array<[string, () => Promise<Response>, number, string]> {
  const query = (q: string, variables?: Record<string, unknown>) => api.post({ query: q, variables }, token);
  return [
    [
      '40-level introspection',
      () => query(`{ __type(name: "Task") { ${ofTypes(40)} } }`),
      400,
      // Production has introspection off: validation refuses `__type` before its depth is measured.
      mode === 'production' ? 'GRAPHQL_VALIDATION_FAILED' : 'QUERY_TOO_DEEP',
    ],
    [
      '1 000 aliases',
      () => query(`{ ${Array.from({ length: 1_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`),
      400,
      'TOO_MANY_ALIASES',
    ],
    [
      '200 directives',
      () => query(`{ me ${'@include(if: true) '.repeat(200)}{ userId } }`),
      400,
      'TOO_MANY_DIRECTIVES',
    ],
    ['a 100 000-token document', () => query(`{ me { ${'userId '.repeat(100_000)}} }`), 400, 'TOO_MANY_TOKENS'],
    [
      'a batch of 100',
      () =>
        api.post(
          Array.from({ length: 100 }, (_, i) => ({ query: SEND_MESSAGE, variables: { text: `batched ${i}` } })),
          token,
        ),
      400,
      'BATCH_TOO_LARGE',
    ],
    [
      'a 5 MB body',
      () => api.post({ query: SEND_MESSAGE, variables: { text: 'x'.repeat(5_000_000) } }, token),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    [
      'malformed JSON',
      () => api.post('{"query": "mutation { sendMessage(text: \\"hi\\") { messageId } }"', token),
      400,
      'BAD_REQUEST',
    ],
    ['no token', () => api.post({ query: SEND_MESSAGE, variables: { text: 'no token' } }), 401, 'UNAUTHENTICATED'],
    [
      'wrong token',
      () => api.post({ query: SEND_MESSAGE, variables: { text: 'hi' } }, `lomo_${'A'.repeat(43)}`),
      401,
      'UNAUTHENTICATED',
    ],
    ['unknown field', () => query('{ me { userid } }'), 400, 'GRAPHQL_VALIDATION_FAILED'],
    ['unknown task', () => query(UNKNOWN_TASK), 200, 'NOT_FOUND'],
  ];
}

async function start(mode: Mode, extra: Record<string, string> = {}): Promise<{ api: RunningApi; token: string }> {
  const api = await startStandaloneApi({
    NODE_ENV: mode,
    ...(mode === 'production' ? { LOMO_SECRETS_KEY: randomBytes(32).toString('base64') } : {}),
    // The default body limit (100 000 bytes) would refuse a 100 000-token document for its size
    // before its tokens are counted; 1 MB lets it reach the token check, and still refuses 5 MB.
    LOMO_API_MAX_BODY_BYTES: '1000000',
    // Room for this file's requests from 127.0.0.1, and a refill so slow (one request every
    // 50 s) that no token comes back between the flood below and the check after it, however
    // slowly a loaded machine answers the flood.
    LOMO_API_IP_RATE_LIMIT_BURST: '150',
    LOMO_API_IP_RATE_LIMIT_PER_SECOND: '0.02',
    ...extra,
  });
  const token = mode === 'production' ? (await createToken(api, 'abuse', 'eve')).token : api.devToken;
  return { api, token };
}

// Every probe of the issue is refused with a typed code, no stack trace, and appends nothing:
// the event store's head position is the same before and after the whole set.
describe.each<Mode>(['development', 'production'])('API abuse set (NODE_ENV=%s)', (mode) => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    ({ api, token } = await start(mode));
    // A live workspace first, so "nothing appended" is measured against a store in use.
    await sendAndSettle(api, token, 'Please take a note: the abuse set runs now');
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('refuses each probe with its typed code, no stack trace, and appends nothing', async () => {
    const before = await api.headPosition();
    expect(before).toBeDefined();
    for (const [name, send, status, code] of abuseSet(api, token, mode)) {
      const a = await answer(name, await send());
      expect({ name, status: a.status, codes: a.codes, data: a.data, stacks: a.stacks }).toEqual({
        name,
        status,
        codes: [code],
        data: null,
        stacks: 0,
      });
    }
    expect(await api.headPosition()).toBe(before);

    // The same appends when it is not refused, so the comparison above can fail.
    const sent = await api.gql(token, SEND_MESSAGE, { text: 'one that is let through' });
    expect(sent.errors).toBeUndefined();
    expect(await api.headPosition()).not.toBe(before);
  }, 60_000);

  it(
    mode === 'production'
      ? 'names no field in production ("Did you mean" is dropped)'
      : 'suggests the field in development',
    async () => {
      const a = await answer('unknown field', await api.post({ query: '{ me { userid } }' }, token));
      expect(a.codes).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      if (mode === 'production') expect(a.messages).toEqual(['Cannot query field "userid" on type "Me".']);
      else expect(a.messages[0]).toMatch(/Did you mean "userId"\?$/);
    },
  );

  it('limits an unauthenticated flood per client address, before authentication', async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, () =>
        api.post({ query: '{ me { userId } }' }, `lomo_${'B'.repeat(43)}`).then((r) => answer('flood', r)),
      ),
    );
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(50);
    expect(new Set(limited.map((r) => r.codes.join()))).toEqual(new Set(['RATE_LIMITED']));
    expect(new Set(responses.filter((r) => r.status !== 429).map((r) => r.codes.join()))).toEqual(
      new Set(['UNAUTHENTICATED']),
    );
    expect(responses.filter((r) => r.stacks > 0)).toEqual([]);
    // A valid token from the same address is refused too: the address's bucket is empty.
    const a = await answer('after the flood', await api.post({ query: '{ me { userId } }' }, token));
    expect({ status: a.status, codes: a.codes }).toEqual({ status: 429, codes: ['RATE_LIMITED'] });
  });
});

describe('API abuse set with LOMO_DEBUG_ERRORS=true', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    ({ api, token } = await start('production', { LOMO_DEBUG_ERRORS: 'true' }));
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('sends stack traces when asked to, so the check above can fail', async () => {
    const notFound = await answer('unknown task', await api.post({ query: UNKNOWN_TASK }, token));
    expect(notFound.codes).toEqual(['NOT_FOUND']);
    expect(notFound.stacks).toBeGreaterThan(0);
    const unknownField = await answer('unknown field', await api.post({ query: '{ me { userid } }' }, token));
    expect(unknownField.codes).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(unknownField.stacks).toBeGreaterThan(0);
  });
});
