import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  buildSchema,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { SqliteEventStore } from '@lomo/eventstore';
import { createToken, type RunningApi } from './standalone-api';
import { SEND_MESSAGE, sendAndSettle } from './queries';

const root = path.resolve(__dirname, '../../../..');

/** The standalone's settings for a fuzz run: see README "API fuzzer". */
export const FUZZ_ENV: Record<string, string> = {
  // One client at full speed from 127.0.0.1: the per-address and per-token buckets would refuse
  // most of the run. Their refusals are covered by api-bad-input and api-abuse-set.
  LOMO_API_RATE_LIMIT_BURST: '100000',
  LOMO_API_RATE_LIMIT_PER_SECOND: '100000',
  LOMO_API_IP_RATE_LIMIT_BURST: '100000',
  LOMO_API_IP_RATE_LIMIT_PER_SECOND: '100000',
  // A generated consistency token no read model reaches would hold each such request 5 s.
  LOMO_API_CONSISTENCY_TIMEOUT_MS: '200',
};

type TokenPick = 'own' | 'foreign' | 'revoked' | 'none' | 'garbage' | 'basic';

interface FuzzRequest {
  what: string;
  token: TokenPick;
  method: 'POST' | 'GET';
  contentType: string;
  /** POST body, or the GET query string. */
  body: string;
}

/** Values the generated operations draw from: real ids of this workspace and of another one. */
interface Pools {
  ids: string[];
  cursors: string[];
  consistencyTokens: string[];
  streamIds: string[];
}

export interface FuzzFigures {
  requests: number;
  valid_results: number;
  typed_errors: number;
  untyped_errors: number;
  server_errors: number;
  stack_traces: number;
  appended_on_refusal: number;
}

export interface FuzzReport extends FuzzFigures {
  seed: number;
  seconds: number;
  codes: Record<string, number>;
  /** The first few failing requests, to reproduce. */
  failures: Array<{ what: string; status: number; body: string; request: string }>;
}

export const fuzzFailed = (f: FuzzFigures) =>
  f.server_errors + f.stack_traces + f.appended_on_refusal + f.untyped_errors > 0 || f.requests === 0;

const ODD = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff x',
  '\u202e\u202dRTL',
  '\ufeff',
  'e\u0301\u0301\u0301',
  '👩‍👩‍👧‍👦',
  '𝕏'.repeat(50),
  '"\\\'`${}<script>',
  '\n\r\t',
  'Robert"); DROP TABLE events;--',
  '%00%ff',
];

const HUGE = ['x'.repeat(20_001), 'ü'.repeat(60_000), 'y'.repeat(120_000)];

function stringArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
    { weight: 2, arbitrary: fc.constantFrom('Please take a note: fuzz', 'hello', 'Make an image of a cat') },
  );
}

const WRONG: unknown[] = [null, 0, -1, 1.5, 2 ** 53, -(2 ** 31) - 1, true, 'text', [], [1, 'a'], {}, { a: 1 }, 'NaN'];

function scalarArb(name: string, pools: Pools): fc.Arbitrary<unknown> {
  switch (name) {
    case 'Int':
      return fc.oneof(
        fc.integer({ min: -5, max: 120 }),
        fc.constantFrom(0, 1, 20, 100, 101, -1, 2 ** 31, -(2 ** 31) - 1, 1e12),
        fc.double(),
      );
    case 'Float':
      return fc.double();
    case 'Boolean':
      return fc.boolean();
    case 'ID':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...pools.ids) },
        { weight: 1, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: stringArb() },
        { weight: 1, arbitrary: fc.constantFrom(...pools.streamIds) },
      );
    default:
      return fc.oneof(
        { weight: 3, arbitrary: stringArb() },
        { weight: 1, arbitrary: fc.constantFrom(...pools.cursors, ...pools.consistencyTokens, ...pools.streamIds) },
      );
  }
}

/** A value for `type`, of the right type mostly and of a wrong one sometimes. */
function valueArb(type: GraphQLInputType, pools: Pools, argName: string, depth = 0): fc.Arbitrary<unknown> {
  const right = (): fc.Arbitrary<unknown> => {
    const t = getNullableType(type);
    if (isListType(t)) return fc.array(valueArb(t.ofType, pools, argName, depth + 1), { maxLength: 4 });
    if (isEnumType(t)) {
      return fc.oneof(fc.constantFrom(...t.getValues().map((v) => v.name)), fc.constantFrom('FROZEN', 'open', ''));
    }
    if (isInputObjectType(t)) {
      if (depth > 3) return fc.constant({});
      const fields = Object.values(t.getFields());
      return fc.record(Object.fromEntries(fields.map((f) => [f.name, valueArb(f.type, pools, f.name, depth + 1)])), {
        requiredKeys: [],
      });
    }
    if (isScalarType(t)) {
      if (/cursor|after/i.test(argName)) {
        return fc.oneof(fc.constantFrom(...pools.cursors), stringArb());
      }
      if (/consistentWith/.test(argName)) return fc.oneof(fc.constantFrom(...pools.consistencyTokens), stringArb());
      if (/streamId/.test(argName)) return fc.oneof(fc.constantFrom(...pools.streamIds), stringArb());
      if (/url/i.test(argName)) {
        return fc.constantFrom('http://127.0.0.1:1/hook', 'https://example.invalid/h', 'ftp://x', 'not a url', '');
      }
      return scalarArb(t.name, pools);
    }
    return fc.constant(null);
  };
  return fc.oneof({ weight: 12, arbitrary: right() }, { weight: 1, arbitrary: fc.constantFrom(...WRONG) });
}

/** A GraphQL literal for a JSON-ish value (enum-looking strings sometimes bare, as enums are written). */
function literal(value: unknown, bareEnums: boolean): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return bareEnums && /^[A-Z_]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, bareEnums)).join(', ')}]`;
  return `{ ${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${literal(v, bareEnums)}`)
    .join(', ')} }`;
}

function typeText(type: GraphQLInputType): string {
  return String(type);
}

interface Built {
  text: string;
  variables: Record<string, unknown>;
  declarations: string[];
}

/** A number in [0, 1) drawn through the generator, so fast-check replays it from the seed. */
const chance = (g: fc.GeneratorValue): number => g(fc.integer, { min: 0, max: 999 }) / 1_000;

function argumentsOf(
  g: fc.GeneratorValue,
  field: GraphQLField<unknown, unknown>,
  pools: Pools,
  built: Built,
  asVariables: boolean,
): string {
  const parts: string[] = [];
  const args: readonly GraphQLArgument[] = field.args;
  for (const arg of args) {
    const include = isNonNullType(arg.type) && arg.defaultValue === undefined ? chance(g) > 0.05 : g(fc.boolean);
    if (!include) continue;
    const value = g(() => valueArb(arg.type, pools, arg.name));
    if (asVariables) {
      const name = `v${built.declarations.length}`;
      // Sometimes declared with a wrong type: validation must refuse it, typed.
      const declared = chance(g) < 0.05 ? 'String' : typeText(arg.type);
      built.declarations.push(`$${name}: ${declared}`);
      built.variables[name] = value;
      parts.push(`${arg.name}: $${name}`);
    } else {
      parts.push(`${arg.name}: ${literal(value, isEnumType(getNamedType(arg.type)))}`);
    }
  }
  if (chance(g) < 0.05)
    parts.push(
      `bogusArg: ${literal(
        g(() => fc.constantFrom(...WRONG)),
        false,
      )}`,
    );
  return parts.length === 0 ? '' : `(${parts.join(', ')})`;
}

function selection(
  g: fc.GeneratorValue,
  type: GraphQLObjectType,
  pools: Pools,
  built: Built,
  asVariables: boolean,
  depth: number,
): string {
  const fields = Object.values(type.getFields());
  const count = g(fc.integer, { min: 1, max: Math.min(4, fields.length) });
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const field = fields[g(fc.integer, { min: 0, max: fields.length - 1 })];
    const alias = chance(g) < 0.1 ? `a${i}: ` : '';
    const named = getNamedType(field.type);
    let text = `${alias}${field.name}${argumentsOf(g, field, pools, built, asVariables)}`;
    if (isObjectType(named)) {
      text += depth >= 4 ? ' { __typename }' : ` { ${selection(g, named, pools, built, asVariables, depth + 1)} }`;
    }
    parts.push(text);
  }
  const extra = chance(g);
  if (extra < 0.04) parts.push('unknownField');
  else if (extra < 0.08) parts.push('__typename');
  else if (extra < 0.1) parts.push(`... on ${type.name} { __typename }`);
  return parts.join(' ');
}

function operationArb(
  schema: GraphQLSchema,
  pools: Pools,
): fc.Arbitrary<{ query: string; variables: Record<string, unknown>; root: string }> {
  return fc.gen().map((g) => {
    const kind = g(() => fc.constantFrom('query', 'query', 'query', 'mutation', 'mutation', 'subscription'));
    const rootType =
      kind === 'query'
        ? schema.getQueryType()!
        : kind === 'mutation'
          ? schema.getMutationType()!
          : schema.getSubscriptionType()!;
    const asVariables = g(fc.boolean);
    const built: Built = { text: '', variables: {}, declarations: [] };
    const fields = Object.values(rootType.getFields());
    const field = fields[g(fc.integer, { min: 0, max: fields.length - 1 })];
    const named = getNamedType(field.type);
    let body = `${field.name}${argumentsOf(g, field, pools, built, asVariables)}`;
    if (isObjectType(named)) body += ` { ${selection(g, named, pools, built, asVariables, 1)} }`;
    const declarations = built.declarations.length > 0 ? `(${built.declarations.join(', ')})` : '';
    return {
      query: `${kind} Fuzz${declarations} { ${body} }`,
      variables: built.variables,
      root: `${kind}.${field.name}`,
    };
  });
}

const json = (value: unknown) => JSON.stringify(value);

function rawArb(): fc.Arbitrary<Omit<FuzzRequest, 'token'>> {
  const post = (what: string, body: string, contentType = 'application/json') =>
    ({ what, method: 'POST', contentType, body }) as const;
  return fc.oneof(
    fc.constant(post('malformed JSON', '{"query": "{ me { userId } }"')),
    fc.constant(post('empty body', '')),
    fc.constant(post('JSON null', 'null')),
    fc.constant(post('JSON string', '"{ me { userId } }"')),
    fc.constant(post('empty batch', '[]')),
    fc.constant(post('query not a string', json({ query: 5 }))),
    fc.constant(post('variables not an object', json({ query: '{ me { userId } }', variables: 'x' }))),
    fc.constant(post('no query', json({ variables: {} }))),
    fc.constant(
      post('two operations, none named', json({ query: 'query A { me { userId } } query B { me { tokenId } }' })),
    ),
    fc.constant(post('unknown operationName', json({ query: 'query A { me { userId } }', operationName: 'B' }))),
    fc.constant(post('text/plain (CSRF)', json({ query: '{ me { userId } }' }), 'text/plain')),
    fc.constant(post('latin1 charset', json({ query: '{ me { userId } }' }), 'application/json; charset=latin1')),
    fc.constant(post('utf-16 charset', json({ query: '{ me { userId } }' }), 'application/json; charset=utf-16')),
    fc.constant(post('nested JSON', `${'['.repeat(5_000)}${']'.repeat(5_000)}`)),
    fc.constant(post('deep selection', json({ query: `{ ${'me { '.repeat(300)}${'}'.repeat(300)} }` }))),
    fc.constant(
      post(
        'deep list literal',
        json({ query: `{ tasks(status: ${'['.repeat(2_000)}${']'.repeat(2_000)}) { edges { cursor } } }` }),
      ),
    ),
    fc.constant(post('subscription over HTTP', json({ query: 'subscription { mainlineUpdated { snapshot } }' }))),
    fc.constant(
      post(
        'persisted query hash only',
        json({ extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } }),
      ),
    ),
    fc
      .integer({ min: 2, max: 14 })
      .map((n) =>
        post(`batch of ${n}`, json(Array.from({ length: n }, (_, i) => ({ query: `{ me { userId } } # ${i}` })))),
      ),
    fc.constant({
      what: 'GET query',
      method: 'GET',
      contentType: '',
      body: 'query=%7B%20me%20%7B%20userId%20%7D%20%7D',
    } as const),
    fc.constant({
      what: 'GET mutation',
      method: 'GET',
      contentType: '',
      body: `query=${encodeURIComponent('mutation { sendMessage(text: "x") { messageId } }')}`,
    } as const),
  );
}

function requestArb(schema: GraphQLSchema, pools: Pools): fc.Arbitrary<FuzzRequest> {
  const token = fc.constantFrom<TokenPick>(
    'own',
    'own',
    'own',
    'own',
    'own',
    'own',
    'foreign',
    'revoked',
    'none',
    'garbage',
    'basic',
  );
  const graphql = fc.tuple(operationArb(schema, pools), token).map(([op, t]): FuzzRequest => ({
    what: op.root,
    token: t,
    method: 'POST',
    contentType: 'application/json',
    body: json({ query: op.query, variables: op.variables }),
  }));
  const raw = fc.tuple(rawArb(), token).map(([r, t]): FuzzRequest => ({ ...r, token: t }));
  return fc.oneof({ weight: 9, arbitrary: graphql }, { weight: 1, arbitrary: raw });
}

/**
 * Signs of a stack trace in a response: Apollo's `extensions.stacktrace`, a V8 frame, or this
 * checkout's absolute path.
 */
export function stackSigns(text: string): number {
  const fields = (text.match(/"stacktrace"/g) ?? []).length;
  const frames = (text.match(/\bat [^\s"]+ \([^)]*:\d+:\d+\)|\bat \/[^\s"]+:\d+:\d+/g) ?? []).length;
  return fields + frames + (text.includes(root) ? 1 : 0);
}

interface Verdict {
  refused: boolean;
  typed: number;
  untyped: number;
  server: number;
  valid: boolean;
  codes: string[];
}

function judge(status: number, text: string): Verdict {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { refused: true, typed: 0, untyped: 1, server: status >= 500 ? 1 : 0, valid: false, codes: [] };
  }
  const results = (Array.isArray(parsed) ? parsed : [parsed]) as Array<{ data?: unknown; errors?: unknown }>;
  const verdict: Verdict = {
    refused: true,
    typed: 0,
    untyped: 0,
    server: status >= 500 ? 1 : 0,
    valid: false,
    codes: [],
  };
  for (const result of results) {
    const errors = Array.isArray(result?.errors) ? (result.errors as Array<{ extensions?: { code?: unknown } }>) : [];
    const data = result?.data;
    const returned =
      data !== null && data !== undefined && typeof data === 'object' && Object.values(data).some((v) => v !== null);
    if (returned) verdict.refused = false;
    if (errors.length === 0 && !returned && data === undefined) verdict.untyped += 1;
    if (errors.length === 0 && data !== undefined) verdict.valid = true;
    for (const e of errors) {
      const code = e?.extensions?.code;
      if (typeof code !== 'string') verdict.untyped += 1;
      else if (code === 'INTERNAL_SERVER_ERROR') verdict.server += 1;
      else verdict.typed += 1;
      if (typeof code === 'string') verdict.codes.push(code);
    }
  }
  return verdict;
}

export interface FuzzOptions {
  requests: number;
  seed?: number;
  /** The run stops early (and says so) after this long. */
  timeLimitMs?: number;
  log?: (line: string) => void;
}

/** Tokens and ids of two workspaces, and a revoked token, on a running standalone. */
export async function prepareFuzz(api: RunningApi) {
  const [own, foreign, revoked] = await Promise.all([
    createToken(api, 'fuzz', 'alice'),
    createToken(api, 'other', 'bob'),
    createToken(api, 'fuzz', 'mallory'),
  ]);
  const revokedRun = await api.tokens(['revoke', revoked.id]);
  if (revokedRun.code !== 0) throw new Error(`lomo tokens revoke failed: ${revokedRun.stderr}`);
  const mine = await sendAndSettle(api, own.token, 'Please take a note: fuzzing starts');
  const theirs = await sendAndSettle(api, foreign.token, 'Please take a note: the other workspace');
  const cursorsOf = async (token: string) => {
    const r = await api.gql<{
      tasks: { edges: Array<{ cursor: string }> };
      mainline: { edges: Array<{ cursor: string }> };
    }>(token, '{ tasks(first: 5) { edges { cursor } } mainline(first: 5) { edges { cursor } } }');
    return [...(r.data?.tasks.edges ?? []), ...(r.data?.mainline.edges ?? [])].map((e) => e.cursor);
  };
  const cursors = [...(await cursorsOf(own.token)), ...(await cursorsOf(foreign.token))];
  const tampered = cursors.map((c) => `${c.slice(0, -2)}${c.endsWith('A') ? 'B' : 'A'}`);
  const ahead = Buffer.from(JSON.stringify({ v: 1, p: [['main-fuzz.alice', 1_000_000]] })).toString('base64url');
  const pools: Pools = {
    ids: [mine.taskId, mine.turnId, mine.messageId, theirs.taskId, theirs.turnId, theirs.messageId],
    cursors: [...cursors, ...tampered, 'bm90LWEtY3Vyc29y', '', '0'],
    consistencyTokens: [mine.consistencyToken, theirs.consistencyToken, ahead, 'garbage!'],
    streamIds: [`task-${mine.taskId}`, `task-${theirs.taskId}`, 'main-fuzz.alice', 'main-other.bob', '$all', 'task-'],
  };
  const tokens: Record<TokenPick, string | undefined> = {
    own: `Bearer ${own.token}`,
    foreign: `Bearer ${foreign.token}`,
    revoked: `Bearer ${revoked.token}`,
    none: undefined,
    garbage: `Bearer lomo_${'Z'.repeat(43)}`,
    basic: 'Basic dXNlcjpwdw==',
  };
  return { pools, tokens, ownToken: own.token };
}

/**
 * Sends `requests` generated requests one at a time (so a head move is this request's or the
 * background work of an earlier accepted one) and judges each answer: a typed error or a valid
 * result, never a 5xx or a stack trace. Each request carries its own x-correlation-id, which
 * every event it causes carries (libs/platform/src/trace-context.middleware.ts): a refused
 * request whose id shows up on an appended event has appended. Checked right after the request
 * (events between the head before and after it) and once more at the end, for late appends.
 */
export async function runFuzz(api: RunningApi, options: FuzzOptions): Promise<FuzzReport> {
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const started = Date.now();
  const schema = buildSchema(readFileSync(path.join(root, 'schemas/graphql/schema.graphql'), 'utf8'));
  const { pools, tokens, ownToken } = await prepareFuzz(api);
  const store = new SqliteEventStore({ filename: path.join(api.dataDir, 'events.sqlite') });
  const report: FuzzReport = {
    requests: 0,
    valid_results: 0,
    typed_errors: 0,
    untyped_errors: 0,
    server_errors: 0,
    stack_traces: 0,
    appended_on_refusal: 0,
    seed,
    seconds: 0,
    codes: {},
    failures: [],
  };
  const refusedIds = new Set<string>();
  const fail = (what: string, status: number, body: string, request: string) => {
    if (report.failures.length < 10)
      report.failures.push({ what, status, body: body.slice(0, 600), request: request.slice(0, 600) });
  };
  const appendedBy = async (from: string | undefined, ids: ReadonlySet<string>): Promise<number> => {
    const seen = new Set<string>();
    let position: string | 'start' = from ?? 'start';
    for (;;) {
      const page = await store.readAll({ fromPosition: position, maxCount: 5_000 });
      for (const e of page) if (ids.has(e.metadata.correlationId)) seen.add(e.metadata.eventId);
      if (page.length < 5_000) return seen.size;
      position = page[page.length - 1].metadata.globalPosition;
    }
  };
  try {
    // The attribution works: an accepted mutation's events carry its correlation id.
    const probeHead = await store.headPosition();
    const probe = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${ownToken}`,
        'x-correlation-id': 'fuzz-probe',
      },
      body: json({ query: SEND_MESSAGE, variables: { text: 'attribution probe' } }),
    });
    await probe.text();
    if ((await appendedBy(probeHead, new Set(['fuzz-probe']))) === 0) {
      throw new Error(
        'an accepted sendMessage appended no event with its correlation id: the append check could not fail',
      );
    }

    const arbitrary = requestArb(schema, pools);
    const chunk = 200;
    let n = 0;
    while (n < options.requests) {
      if (options.timeLimitMs !== undefined && Date.now() - started > options.timeLimitMs) {
        log(`time limit of ${options.timeLimitMs} ms reached after ${n} requests`);
        break;
      }
      const batch = fc.sample(arbitrary, { numRuns: Math.min(chunk, options.requests - n), seed: seed + n });
      for (const request of batch) {
        n += 1;
        const id = `fuzz-${seed}-${n}`;
        const headers: Record<string, string> = { 'x-correlation-id': id };
        const authorization = tokens[request.token];
        if (authorization !== undefined) headers.authorization = authorization;
        if (request.contentType !== '') headers['content-type'] = request.contentType;
        // Apollo's CSRF prevention wants this on GET (or a JSON content type on POST).
        if (request.method === 'GET') headers['apollo-require-preflight'] = 'true';
        const before = await store.headPosition();
        let status: number;
        let text: string;
        try {
          const response = await fetch(
            request.method === 'GET' ? `${api.url}/graphql?${request.body}` : `${api.url}/graphql`,
            { method: request.method, headers, ...(request.method === 'POST' ? { body: request.body } : {}) },
          );
          status = response.status;
          text = await response.text();
        } catch (error) {
          status = 599;
          text = String(error);
        }
        report.requests += 1;
        const verdict = judge(status, text);
        const stacks = stackSigns(text);
        report.typed_errors += verdict.typed;
        report.untyped_errors += verdict.untyped;
        report.server_errors += verdict.server;
        if (verdict.valid) report.valid_results += 1;
        if (stacks > 0) report.stack_traces += 1;
        for (const code of verdict.codes) report.codes[code] = (report.codes[code] ?? 0) + 1;
        if (verdict.server + verdict.untyped + stacks > 0) fail(request.what, status, text, request.body);
        if (verdict.refused) {
          refusedIds.add(id);
          const after = await store.headPosition();
          if (after !== before) {
            const appended = await appendedBy(before, new Set([id]));
            report.appended_on_refusal += appended;
            if (appended > 0) fail(`${request.what} (appended ${appended})`, status, text, request.body);
          }
        }
        if (n % 1_000 === 0)
          log(`${n} requests, ${report.server_errors} server errors, ${report.stack_traces} stack traces`);
      }
    }
    // Late appends (the router or a turn acting on a refused request) would carry its id too.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const late = await appendedBy(undefined, refusedIds);
    report.appended_on_refusal = Math.max(report.appended_on_refusal, late);
  } finally {
    await store.close();
  }
  report.seconds = Math.round((Date.now() - started) / 100) / 10;
  return report;
}
