import { createToken, startStandaloneApi, type GraphqlError, type RunningApi } from './support/standalone-api';
import { SEND_MESSAGE, sendAndSettle } from './support/queries';

interface Refusal {
  status: number;
  codes: Array<string | undefined>;
  data: unknown;
}

async function refusal(response: Response): Promise<Refusal & { errors: GraphqlError[]; headers: Headers }> {
  const body = (await response.json()) as { data?: unknown; errors?: GraphqlError[] };
  const errors = body.errors ?? [];
  // A failed nullable root field reads `{ field: null }`: nothing was returned either way.
  const nothing = body.data == null || Object.values(body.data).every((v) => v === null);
  return {
    status: response.status,
    codes: errors.map((e) => e.extensions?.code),
    data: nothing ? null : body.data,
    errors,
    headers: response.headers,
  };
}

const nested = (levels: number): string =>
  levels === 0 ? 'id' : `turns(first: 1) { edges { node { task { ${nested(levels - 1)} } } } }`;

// Every bad request gets a typed error in `extensions.code`, no stack trace, and changes nothing:
// the event store's head position is the same before and after all of them.
describe('API bad input: typed errors, nothing appended', () => {
  let api: RunningApi;
  let settled: Awaited<ReturnType<typeof sendAndSettle>>;

  beforeAll(async () => {
    // A slow refill (one request per 5 s) so the burst test does not depend on how fast a loaded
    // machine answers 80 requests; the burst (60) still covers every other test here.
    api = await startStandaloneApi({ LOMO_API_RATE_LIMIT_PER_SECOND: '0.2' });
    // A live workspace first, so "nothing appended" is measured against a store that is in use.
    settled = await sendAndSettle(api, api.devToken, 'Please take a note: the plant needs water');
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('refuses each bad request with its code and appends no event', async () => {
    const token = api.devToken;
    const before = await api.headPosition();
    expect(before).toBeDefined();
    const send = (variables: Record<string, unknown>) => api.post({ query: SEND_MESSAGE, variables }, token);
    const query = (q: string, variables?: Record<string, unknown>) => api.post({ query: q, variables }, token);

    const cases: Array<[string, Promise<Response>, number, string]> = [
      ['oversize text', send({ text: 'x'.repeat(20_001) }), 200, 'VALIDATION_FAILED'],
      ['blank text', send({ text: '   ' }), 200, 'VALIDATION_FAILED'],
      ['body over the size limit', send({ text: 'y'.repeat(150_000) }), 413, 'PAYLOAD_TOO_LARGE'],
      [
        'unknown enum in variables',
        query('query($s: TaskStatus) { tasks(status: $s) { edges { cursor } } }', { s: 'FROZEN' }),
        400,
        'BAD_USER_INPUT',
      ],
      [
        'unknown enum literal',
        query('{ tasks(status: FROZEN) { edges { cursor } } }'),
        400,
        'GRAPHQL_VALIDATION_FAILED',
      ],
      ['malformed task id', query('{ task(id: "not-a-uuid") { id } }'), 200, 'VALIDATION_FAILED'],
      [
        'malformed id in a mutation',
        query('mutation { stopTask(taskId: "123") { taskId } }'),
        200,
        'VALIDATION_FAILED',
      ],
      ['malformed target task id', send({ text: 'hello', taskId: 'task-1' }), 200, 'VALIDATION_FAILED'],
      ['malformed clientMessageId', send({ text: 'hello', client: 'has spaces' }), 200, 'VALIDATION_FAILED'],
      [
        'unknown task',
        query('mutation { stopTask(taskId: "00000000-0000-4000-8000-000000000000") { taskId } }'),
        200,
        'NOT_FOUND',
      ],
      ['page size over 100', query('{ tasks(first: 101) { edges { cursor } } }'), 200, 'VALIDATION_FAILED'],
      ['foreign cursor', query('{ tasks(after: "bm90LWEtY3Vyc29y") { edges { cursor } } }'), 200, 'VALIDATION_FAILED'],
      [
        'malformed consistency token',
        query('{ tasks(consistentWith: "garbage!") { edges { cursor } } }'),
        200,
        'INVALID_CONSISTENCY_TOKEN',
      ],
      [
        'too deep',
        query(`query($id: ID!) { task(id: $id) { ${nested(4)} } }`, { id: settled.taskId }),
        400,
        'QUERY_TOO_DEEP',
      ],
      [
        'too costly',
        query(
          '{ tasks(first: 100) { edges { node { turns(first: 100) { edges { node { ledger(first: 100) { edges { node { callId } } } } } } } } } }',
        ),
        400,
        'QUERY_TOO_COSTLY',
      ],
      [
        'withdraw a message a step already read',
        query('mutation($id: ID!) { withdrawMessage(messageId: $id) { taskId } }', { id: settled.messageId }),
        200,
        'INBOX_ITEM_CLAIMED',
      ],
      ['malformed JSON', api.post('{"query": "{ me { userId } }"', token), 400, 'BAD_REQUEST'],
      ['missing token', api.post({ query: SEND_MESSAGE, variables: { text: 'no token' } }), 401, 'UNAUTHENTICATED'],
      [
        'wrong token',
        api.post({ query: SEND_MESSAGE, variables: { text: 'hi' } }, `lomo_${'A'.repeat(43)}`),
        401,
        'UNAUTHENTICATED',
      ],
      [
        'not a bearer token',
        api.post({ query: '{ me { userId } }' }, undefined, { authorization: 'Basic dXNlcjpwdw==' }),
        401,
        'UNAUTHENTICATED',
      ],
      [
        'a batch of 50 operations',
        api.post(
          Array.from({ length: 50 }, (_, i) => ({ query: SEND_MESSAGE, variables: { text: `batched ${i}` } })),
          token,
        ),
        400,
        'BATCH_TOO_LARGE',
      ],
    ];
    for (const [name, pending, status, code] of cases) {
      const r = await refusal(await pending);
      expect({ name, status: r.status, codes: r.codes, data: r.data }).toEqual({
        name,
        status,
        codes: [code],
        data: null,
      });
      // No stack traces outside development.
      expect({ name, stacks: r.errors.filter((e) => e.extensions?.stacktrace !== undefined).length }).toEqual({
        name,
        stacks: 0,
      });
    }
    const oversize = await refusal(await send({ text: 'z'.repeat(20_001) }));
    expect(oversize.errors[0].extensions?.issues).toEqual([{ path: 'text', message: expect.any(String) }]);

    expect(await api.headPosition()).toBe(before);
  }, 60_000);

  it('waits for a consistency token no read model reaches, then answers CONSISTENCY_TIMEOUT', async () => {
    const ahead = Buffer.from(JSON.stringify({ v: 1, p: [['main-dev.dev', 1_000_000]] })).toString('base64url');
    const started = Date.now();
    const r = await refusal(
      await api.post({ query: `{ mainline(consistentWith: "${ahead}") { edges { cursor } } }` }, api.devToken),
    );
    expect({ codes: r.codes, retriable: r.errors[0]?.extensions?.retriable }).toEqual({
      codes: ['CONSISTENCY_TIMEOUT'],
      retriable: true,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
  }, 20_000);

  it('answers a small batch operation by operation', async () => {
    const response = await api.post(
      [{ query: '{ me { userId } }' }, { query: '{ me { workspaceId } }' }],
      api.devToken,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { data: { me: { userId: 'dev' } } },
      { data: { me: { workspaceId: 'dev' } } },
    ]);
  });

  it('limits a burst per token with RATE_LIMITED and Retry-After, refusing its mutation without appending', async () => {
    const burst = await createToken(api, 'dev', 'dev');
    const before = await api.headPosition();
    const responses = await Promise.all(
      Array.from({ length: 80 }, () => api.post({ query: '{ me { userId } }' }, burst.token)),
    );
    const results = await Promise.all(responses.map(refusal));
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expect(limited[0].codes).toEqual(['RATE_LIMITED']);
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0].errors[0].extensions?.retryAfterSeconds).toEqual(expect.any(Number));

    const refused = await refusal(
      await api.post({ query: SEND_MESSAGE, variables: { text: 'one more' } }, burst.token),
    );
    expect({ status: refused.status, codes: refused.codes }).toEqual({ status: 429, codes: ['RATE_LIMITED'] });
    expect(await api.headPosition()).toBe(before);

    // Other tokens keep their own budget, and a good request still appends (the check above can fail).
    const sent = await api.gql<{ sendMessage: { messageId: string } }>(api.devToken, SEND_MESSAGE, {
      text: 'still here',
    });
    expect(sent.errors).toBeUndefined();
    expect(await api.headPosition()).not.toBe(before);
  });
});
