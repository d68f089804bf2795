import { z } from 'zod';
import { decodeSecretsKey, SECRETS_KEY_FORMAT } from './secrets-key';

/**
 * Every environment variable the backend reads, with its default and meaning. The README's
 * configuration table and the deploy manifests are checked against this list.
 */
export interface ConfigVariable {
  name: string;
  default?: string;
  meaning: string;
  /** Required in the given mode when it has no default. */
  requiredIn?: readonly ('embedded' | 'distributed')[];
  /** A credential: a wrong value is never echoed in error messages. */
  secret?: boolean;
}

const positiveInt = (max: number) => z.coerce.number().int().min(1).max(max);
const port = z.coerce.number().int().min(0).max(65535);
/** Names are checked against the known ones in loadConfig, which lists them in its message. */
const testSwitchList = z.string().regex(/^[a-z_]+(,[a-z_]+)*$/, 'a comma-separated list of names (a_b,c_d)');

export const configShape = {
  LOMO_MODE: z.enum(['embedded', 'distributed']),
  NODE_ENV: z.enum(['development', 'test', 'production']),
  PORT: port,
  HOST: z.string().min(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  LOMO_DATA_DIR: z.string().min(1),
  LOMO_EVENTSTORE: z.enum(['sqlite', 'eventstoredb']),
  LOMO_SQLITE_PATH: z.string().min(1).optional(),
  LOMO_SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']),
  LOMO_BUS: z.enum(['in-process', 'kafka']),
  LOMO_BUS_PATH: z.string().min(1).optional(),
  LOMO_BUS_PARTITIONS: positiveInt(1024),
  LOMO_BUS_MAX_ATTEMPTS: positiveInt(100),
  LOMO_RELAY: z.enum(['on', 'off']),
  LOMO_RELAY_BATCH_SIZE: positiveInt(10_000),
  LOMO_RELAY_LEASE_MS: z.coerce.number().int().min(500).max(600_000),
  LOMO_BLOB_DIR: z.string().min(1).optional(),
  LOMO_BLOB_STORE: z.enum(['filesystem', 'mongodb']).optional(),
  LOMO_TOOLS_STORE: z.enum(['sqlite', 'mongodb']).optional(),
  KAFKA_BROKERS: z
    .string()
    .regex(/^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/, 'a comma-separated list of host:port')
    .optional(),
  KAFKA_CLIENT_ID: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
  KAFKA_REPLICATION_FACTOR: positiveInt(7),
  KAFKA_SESSION_TIMEOUT_MS: positiveInt(300_000),
  KAFKA_HEARTBEAT_INTERVAL_MS: positiveInt(60_000),
  EVENTSTORE_URL: z.string().startsWith('esdb').optional(),
  SHUTDOWN_TIMEOUT_MS: positiveInt(120_000),
  LOMO_MODEL_PROVIDER: z.enum(['offline', 'openai', 'reactive']),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  LOMO_MODEL: z.string().min(1).max(200),
  LOMO_MODEL_TIMEOUT_MS: positiveInt(600_000),
  LOMO_MODEL_TOKEN_BUDGET: positiveInt(1_000_000_000_000).optional(),
  LOMO_OPENAI_ALLOWED_TOOLS: z.enum(['on', 'off']),
  LOMO_MODEL_CONTEXT_TOKENS: z.coerce.number().int().min(1_024).max(10_000_000),
  LOMO_CONTEXT_HISTORY_SHARE: z.coerce.number().min(0.05).max(0.95),
  LOMO_TOOL_STRATEGY: z.enum(['dynamic', 'masked']),
  LOMO_TOOL_DOMAINS: z.enum(['on_demand', 'all']),
  LOMO_ROUTING_TIMEOUT_MS: positiveInt(600_000),
  LOMO_ROUTING_RECENT: positiveInt(100),
  LOMO_ROUTING_RETRIEVED: positiveInt(50),
  LOMO_EMBEDDING_PROVIDER: z.enum(['hashing', 'openai', 'onnx']).optional(),
  LOMO_EMBEDDING_BASE_URL: z.url().optional(),
  LOMO_EMBEDDING_MODEL: z.string().min(1).max(200),
  LOMO_EMBEDDING_DIMENSIONS: positiveInt(65_536).optional(),
  LOMO_EMBEDDING_MODEL_DIR: z.string().min(1),
  LOMO_EMBEDDING_ONNX_MODEL: z.enum(['bilingual', 'zh', 'en']),
  LOMO_WORKER_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,128}$/)
    .optional(),
  LOMO_LEASE_MS: positiveInt(600_000),
  LOMO_WATCHDOG_INTERVAL_MS: positiveInt(3_600_000),
  LOMO_MAX_STEPS_PER_TURN: positiveInt(10_000),
  LOMO_MAX_AUTO_TURNS: positiveInt(1_000),
  LOMO_MAX_TURNS_WITHOUT_PROGRESS: positiveInt(1_000),
  LOMO_AUTH_SQLITE_PATH: z.string().min(1).optional(),
  LOMO_AUTH_TOKEN_CACHE_MS: z.coerce.number().int().min(0).max(5_000).optional(),
  LOMO_API_MAX_BODY_BYTES: z.coerce.number().int().min(1_024).max(10_000_000),
  LOMO_API_MAX_BATCH: positiveInt(100),
  LOMO_MEDIA_MAX_BYTES: z.coerce.number().int().min(1_024).max(2_000_000_000),
  LOMO_API_MAX_DEPTH: z.coerce.number().int().min(2).max(50),
  LOMO_API_MAX_COST: z.coerce.number().int().min(10).max(10_000_000),
  LOMO_API_RATE_LIMIT_BURST: positiveInt(100_000),
  LOMO_API_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0.01).max(100_000),
  LOMO_API_MAX_ALIASES: positiveInt(10_000),
  LOMO_API_MAX_DIRECTIVES: positiveInt(10_000),
  LOMO_API_MAX_TOKENS: z.coerce.number().int().min(100).max(1_000_000),
  LOMO_API_IP_RATE_LIMIT_BURST: positiveInt(1_000_000),
  LOMO_API_IP_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0.01).max(1_000_000),
  LOMO_API_TRUST_PROXY: z.coerce.number().int().min(0).max(10),
  LOMO_API_INTROSPECTION: z.enum(['true', 'false']).optional(),
  LOMO_DEBUG_ERRORS: z.enum(['true', 'false']),
  LOMO_API_CONSISTENCY_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000),
  LOMO_API_WS_MAX_SUBSCRIPTIONS_PER_TOKEN: positiveInt(1_000),
  LOMO_API_DEV_WORKSPACE: z.string().regex(/^[a-z0-9][a-z0-9_]{0,62}$/),
  LOMO_API_DEV_USER: z.string().regex(/^[a-z0-9][a-z0-9_]{0,62}$/),
  MONGODB_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'a mongodb:// or mongodb+srv:// connection string')
    .optional(),
  MONGODB_DATABASE: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/),
  LOMO_READ_MODELS_PATH: z.string().min(1).optional(),
  LOMO_PROJECTOR_FEED: z.enum(['bus', 'store']).optional(),
  LOMO_PROJECTOR_SWEEP_MS: z.coerce.number().int().min(50).max(3_600_000),
  LOMO_PROJECTOR_MAX_LAG_SECONDS: z.coerce.number().min(1).max(86_400),
  LOMO_NOTIFIER_SQLITE_PATH: z.string().min(1).optional(),
  LOMO_WEBHOOK_HTTP_ALLOWLIST: z
    .string()
    .regex(/^[A-Za-z0-9.:[\]-]+(,[A-Za-z0-9.:[\]-]+)*$/, 'a comma-separated list of host names or IP addresses')
    .optional(),
  LOMO_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50),
  LOMO_WEBHOOK_BACKOFF_INITIAL_MS: z.coerce.number().int().min(1).max(3_600_000),
  LOMO_WEBHOOK_BACKOFF_MAX_MS: z.coerce.number().int().min(1).max(86_400_000),
  LOMO_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000),
  LOMO_WEBHOOK_STREAMS_IN_FLIGHT: z.coerce.number().int().min(1).max(64),
  LOMO_WEBHOOK_BATCH_SIZE: z.coerce.number().int().min(1).max(5_000),
  LOMO_WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000),
  LOMO_WEBHOOK_RECONCILE_MS: z.coerce.number().int().min(10).max(300_000),
  LOMO_WEBHOOK_LEASE_MS: z.coerce.number().int().min(300).max(600_000),
  LOMO_WEBHOOK_SECRET_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400),
  LOMO_WEBHOOK_MAX_PER_WORKSPACE: z.coerce.number().int().min(1).max(1_000),
  LOMO_WEBHOOK_DISABLE_ON_GONE: z.enum(['true', 'false']),
  LOMO_GENERATION: z.enum(['on', 'off']),
  LOMO_GENERATION_PROVIDER: z.enum(['simulated', 'openai']),
  LOMO_SIM_UPSTREAM_URL: z.url().optional(),
  LOMO_GENERATION_CALLBACK_SECRET: z.string().min(16).max(512).optional(),
  LOMO_GENERATION_PUBLIC_URL: z.url().optional(),
  OPENAI_WEBHOOK_SECRET: z.string().min(1).optional(),
  LOMO_GENERATION_SILENCE_MS: z.coerce.number().int().min(100).max(3_600_000),
  LOMO_GENERATION_SUBMIT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000),
  LOMO_SECRETS_KEY: z
    .string()
    .refine((value) => decodeSecretsKey(value) !== undefined, `must be ${SECRETS_KEY_FORMAT}`)
    .optional(),
  LOMO_TEST_CONTROL: z.enum(['on', 'off']),
  LOMO_TEST_CLOCK_START: z.iso.datetime({ offset: true }).optional(),
  LOMO_TEST_FAULTS: testSwitchList.optional(),
  LOMO_TEST_MUTATIONS: testSwitchList.optional(),
} as const;

export type ConfigKey = keyof typeof configShape;

export const configVariables: Record<ConfigKey, Omit<ConfigVariable, 'name'>> = {
  LOMO_MODE: {
    default: 'embedded',
    meaning: '`embedded`: every app in one process on SQLite; `distributed`: one process per app',
  },
  NODE_ENV: {
    default: 'development',
    meaning:
      '`production` turns dev conveniences off: the dev token, introspection, "Did you mean" hints in errors (stack traces: LOMO_DEBUG_ERRORS)',
  },
  PORT: {
    default: '3000',
    meaning: 'HTTP port of `/health` (also `/health/live`, `/health/ready`), `/metrics` and the API',
  },
  HOST: { default: '127.0.0.1', meaning: 'Address the HTTP server binds to' },
  LOG_LEVEL: { default: 'info', meaning: 'Minimum level of the JSON logs on stdout' },
  LOMO_DATA_DIR: { default: '.data', meaning: 'Directory for embedded-mode files (event store, bus log, blobs)' },
  LOMO_EVENTSTORE: {
    default: 'sqlite',
    meaning: 'Source of truth: `sqlite` (embedded, or a file shared by processes) or `eventstoredb`',
  },
  LOMO_SQLITE_PATH: { default: '$LOMO_DATA_DIR/events.sqlite', meaning: 'SQLite event-store file' },
  LOMO_SQLITE_SYNCHRONOUS: {
    default: 'FULL',
    meaning: 'SQLite `synchronous` pragma of the event store (WAL mode); FULL survives power loss',
  },
  LOMO_BUS: { default: 'in-process', meaning: 'Bus adapter: `in-process` (durable SQLite log) or `kafka`' },
  LOMO_BUS_PATH: { default: '$LOMO_DATA_DIR/bus.sqlite', meaning: 'SQLite file of the in-process bus log' },
  LOMO_BUS_PARTITIONS: { default: '8', meaning: 'Partitions per topic (keys are hashed onto them)' },
  LOMO_BUS_MAX_ATTEMPTS: { default: '5', meaning: 'Handler attempts before a message goes to the dead letters' },
  LOMO_RELAY: {
    default: 'on',
    meaning: 'Whether this process runs the relay from the event store to the bus (distributed: only the relay app)',
  },
  LOMO_RELAY_BATCH_SIZE: {
    default: '2000',
    meaning: 'Events per relay batch (one Kafka transaction) from the store to the bus',
  },
  LOMO_RELAY_LEASE_MS: {
    default: '10000',
    meaning: 'Relay lease duration; a standby takes over this long after the active relay stops renewing',
  },
  LOMO_BLOB_DIR: { default: '$LOMO_DATA_DIR/blobs', meaning: 'Directory of the filesystem BlobStore' },
  LOMO_BLOB_STORE: {
    default: '<mongodb when LOMO_MODE=distributed and MONGODB_URL is set, else filesystem>',
    meaning:
      'BlobStore adapter: `filesystem` (LOMO_BLOB_DIR, one host) or `mongodb` (GridFS in MONGODB_DATABASE, shared by every replica)',
  },
  LOMO_TOOLS_STORE: {
    default: '<mongodb when LOMO_MODE=distributed and MONGODB_URL is set, else sqlite>',
    meaning:
      'State of the starter tools (notes, export jobs): `sqlite` (`$LOMO_DATA_DIR/tools.sqlite`, one host) or `mongodb` (collections in MONGODB_DATABASE)',
  },
  KAFKA_BROKERS: { meaning: 'Comma-separated `host:port` list', requiredIn: [] },
  KAFKA_CLIENT_ID: { default: 'lomo', meaning: 'Kafka client id prefix' },
  KAFKA_REPLICATION_FACTOR: { default: '1', meaning: 'Replication factor of topics the app creates' },
  KAFKA_SESSION_TIMEOUT_MS: {
    default: '30000',
    meaning: 'Consumer session timeout (generous: a 2-core machine stalls under load)',
  },
  KAFKA_HEARTBEAT_INTERVAL_MS: {
    default: '3000',
    meaning: 'Consumer heartbeat interval (a tenth of the session timeout)',
  },
  EVENTSTORE_URL: { meaning: 'EventStoreDB connection string (`esdb://...`), when LOMO_EVENTSTORE=eventstoredb' },
  SHUTDOWN_TIMEOUT_MS: { default: '15000', meaning: 'How long SIGTERM waits for in-flight work before exiting' },
  LOMO_MODEL_PROVIDER: {
    default: 'offline',
    meaning:
      '`offline`: a deterministic keyword policy (a demo stand-in, not a model); `openai`: any OpenAI-compatible endpoint; `reactive`: a test policy for the drills that decides only from its prompt (libs/llm/src/reactive/README.md)',
  },
  OPENAI_BASE_URL: { meaning: 'Base URL of the OpenAI-compatible endpoint (SDK default when unset)' },
  OPENAI_API_KEY: { meaning: 'API key for the endpoint; required when LOMO_MODEL_PROVIDER=openai', secret: true },
  LOMO_MODEL: { default: 'gpt-4o-mini', meaning: 'Model name sent to the endpoint' },
  LOMO_MODEL_TIMEOUT_MS: {
    default: '60000',
    meaning: 'Timeout of one model call (retriable errors are retried with backoff)',
  },
  LOMO_MODEL_TOKEN_BUDGET: {
    meaning:
      'A cap on model spend: the tokens (input + output, as the endpoint reports them) one process may use over its lifetime, across the step loop, routing and memory extraction; past it every model call fails with MODEL_BUDGET_EXHAUSTED (not retried) and the turn fails visibly. Unset: no cap. Per process: a restart starts a new count',
  },
  LOMO_OPENAI_ALLOWED_TOOLS: {
    default: 'on',
    meaning:
      '`on`: with the masked tool strategy the openai provider restricts what the model may call with `tool_choice: allowed_tools`; `off`: for OpenAI-compatible servers that reject that form, which get `auto` (a call outside the allowed tools is still refused by the runtime)',
  },
  LOMO_MODEL_CONTEXT_TOKENS: {
    default: '128000',
    meaning:
      'Context window of LOMO_MODEL in tokens (prompt and reply); the prompt budgets derive from it. 128000 fits gpt-4o and gpt-4o-mini: set it for another model',
  },
  LOMO_CONTEXT_HISTORY_SHARE: {
    default: '0.5',
    meaning:
      'Share of LOMO_MODEL_CONTEXT_TOKENS a task’s history (summary segments and recent messages) may take before its oldest span is compressed into a new summary segment (0.05–0.95)',
  },
  LOMO_TOOL_STRATEGY: {
    default: 'dynamic',
    meaning:
      'Tool definitions in a prompt: `dynamic`: the core tools and the domains loaded for the stage (fewer tokens; loading a domain changes the cached prefix); `masked`: every definition in a stable order, only the visible ones allowed (see LOMO_OPENAI_ALLOWED_TOOLS). Either way a call to a tool not visible is refused',
  },
  LOMO_TOOL_DOMAINS: {
    default: 'on_demand',
    meaning:
      '`on_demand`: the model may call the core tools, the domains the checklist stage needs (a media item: its media; a document item: document) and the ones it loads with tools.load (unloaded when history is compressed); `all`: every domain, always',
  },
  LOMO_ROUTING_TIMEOUT_MS: {
    default: '20000',
    meaning: 'Bound on one routing model call (incl. retries); past it the person is asked instead',
  },
  LOMO_ROUTING_RECENT: { default: '20', meaning: 'Most recently active tasks in every routing prompt' },
  LOMO_ROUTING_RETRIEVED: {
    default: '5',
    meaning: 'Older tasks retrieved by keywords and summary vectors into a routing prompt',
  },
  LOMO_EMBEDDING_PROVIDER: {
    default: '<openai when LOMO_MODEL_PROVIDER=openai, else hashing>',
    meaning:
      'Summary vectors for routing retrieval and memory recall: `hashing`: local feature hashing of words and Han bigrams (lexical, not semantic; no network); `openai`: the embeddings endpoint; `onnx`: local sentence embedders (bge-small zh/en v1.5, quantized; semantic, no network) from LOMO_EMBEDDING_MODEL_DIR, fetched by `npm run models:fetch`',
  },
  LOMO_EMBEDDING_BASE_URL: { default: '$OPENAI_BASE_URL', meaning: 'Base URL of the embeddings endpoint' },
  LOMO_EMBEDDING_MODEL: { default: 'text-embedding-3-small', meaning: 'Embedding model sent to the endpoint' },
  LOMO_EMBEDDING_DIMENSIONS: {
    default: '<256 for hashing, 1536 for openai>',
    meaning:
      'Length of the vectors (sent to the endpoint as `dimensions`); the onnx models fix their own (896 bilingual, 512 zh, 384 en)',
  },
  LOMO_EMBEDDING_MODEL_DIR: {
    default: '.models',
    meaning:
      'Directory of the ONNX models and their tokenizer.json (`npm run models:fetch` writes them there; not in git); read when LOMO_EMBEDDING_PROVIDER=onnx, a missing file fails start-up',
  },
  LOMO_EMBEDDING_ONNX_MODEL: {
    default: 'bilingual',
    meaning:
      '`bilingual`: documents embedded by both models (896 dimensions), a query by the model of its language (Chinese or not); `zh` or `en`: one model for every text (smaller vectors; the other language is poorly served)',
  },
  LOMO_WORKER_ID: {
    default: '<embedded: made once, kept in $LOMO_DATA_DIR/executor-identity.sqlite; distributed: hostname-pid>',
    meaning:
      'Executor worker id written into turn leases. A restart with the same id takes back its turns at once (next generation) instead of waiting out their leases; it must be stable across restarts and never shared by two live processes (distributed: the StatefulSet pod name). Embedded mode locks the kept id: a second process on the same data dir is refused (`WORKER_ID_IN_USE`)',
  },
  LOMO_LEASE_MS: {
    default: '10000',
    meaning:
      'Turn lease duration; the holder renews at a third of it. A turn whose executor died elsewhere is taken over within one lease plus one watchdog scan (12 s by default). Shorter: faster takeover, but more renewal appends (one per running turn per third of a lease) and a stalled event loop loses its turns sooner (a takeover repeats the step in flight, fenced)',
  },
  LOMO_WATCHDOG_INTERVAL_MS: {
    default: '2000',
    meaning:
      'How often the watchdog scans active work (expired leases, lost wake-ups); each scan reads only the events since the last one, so its cost follows active work, not history',
  },
  LOMO_MAX_STEPS_PER_TURN: { default: '50', meaning: 'Steps after which the runtime stops a turn (runaway guard)' },
  LOMO_MAX_AUTO_TURNS: {
    default: '12',
    meaning:
      'Turns the runtime starts by itself in a row on a task with checklist items left (ContinuationDecided), before it stops and tells the person; one wake runs at most 5 turns and hands the rest back to the wake-up topic',
  },
  LOMO_MAX_TURNS_WITHOUT_PROGRESS: {
    default: '2',
    meaning:
      'Completed turns in a row without progress (no new artefact version, item done, job ordered or message consumed) after which the runtime stops continuing',
  },
  LOMO_AUTH_SQLITE_PATH: {
    default: '$LOMO_DATA_DIR/auth.sqlite',
    meaning:
      'Token file of earlier versions: its tokens are copied (as `person`) into the read-model store at start; the file is only read',
  },
  LOMO_AUTH_TOKEN_CACHE_MS: {
    default: '<0 when LOMO_MODE=embedded, else 5000>',
    meaning:
      'How long an API instance trusts a token lookup (0–5000): the bound on a revocation reaching every instance; 0 asks the store on every request',
  },
  LOMO_API_MAX_BODY_BYTES: { default: '100000', meaning: 'Largest HTTP request body the API reads' },
  LOMO_MEDIA_MAX_BYTES: {
    default: '26214400',
    meaning:
      'Largest media upload the API accepts (POST /media: image, video, audio, 3d); a larger one is refused with 413 and nothing is stored',
  },
  LOMO_API_MAX_BATCH: {
    default: '10',
    meaning: 'Operations per batched GraphQL request (a larger batch runs nothing)',
  },
  LOMO_API_MAX_DEPTH: { default: '12', meaning: 'Deepest GraphQL selection allowed' },
  LOMO_API_MAX_COST: { default: '10000', meaning: 'Static cost limit of one operation (fields × page sizes)' },
  LOMO_API_MAX_ALIASES: {
    default: '50',
    meaning: 'Aliased fields in one GraphQL operation, fragments expanded (`TOO_MANY_ALIASES`)',
  },
  LOMO_API_MAX_DIRECTIVES: {
    default: '50',
    meaning: 'Directives in one GraphQL operation, fragments expanded (`TOO_MANY_DIRECTIVES`)',
  },
  LOMO_API_MAX_TOKENS: {
    default: '5000',
    meaning: 'Lexical tokens in one GraphQL document, counted before it is parsed (`TOO_MANY_TOKENS`)',
  },
  LOMO_API_RATE_LIMIT_BURST: {
    default: '60',
    meaning: 'Operations a token may send at once (token bucket size, per API process; a batch counts each operation)',
  },
  LOMO_API_RATE_LIMIT_PER_SECOND: {
    default: '20',
    meaning:
      'Rate at which a token’s bucket refills: a UI polling once a second with up to 10 parallel queries uses half of it',
  },
  LOMO_API_IP_RATE_LIMIT_BURST: {
    default: '200',
    meaning:
      'HTTP requests and WebSocket connections one client address may make at once, checked before authentication (per API process)',
  },
  LOMO_API_IP_RATE_LIMIT_PER_SECOND: {
    default: '50',
    meaning:
      'Refill rate of a client address’s bucket (key: the socket’s address, or the client `X-Forwarded-For` names when LOMO_API_TRUST_PROXY is set)',
  },
  LOMO_API_TRUST_PROXY: {
    default: '0',
    meaning:
      'Reverse proxies in front of the API whose `X-Forwarded-For` is believed (Express `trust proxy` hop count); 0: off, the socket address is the client',
  },
  LOMO_API_INTROSPECTION: {
    default: '<on unless NODE_ENV=production>',
    meaning: 'GraphQL introspection (`true`/`false`)',
  },
  LOMO_DEBUG_ERRORS: {
    default: 'false',
    meaning:
      '`true` sends stack traces and internal error messages to API clients (HTTP and graphql-ws), in any NODE_ENV; for debugging only',
  },
  LOMO_API_CONSISTENCY_TIMEOUT_MS: {
    default: '5000',
    meaning: 'How long a query with `consistentWith` waits for the read models',
  },
  LOMO_API_WS_MAX_SUBSCRIPTIONS_PER_TOKEN: {
    default: '20',
    meaning: 'Open GraphQL subscriptions one token may hold per API process',
  },
  LOMO_API_DEV_WORKSPACE: {
    default: 'dev',
    meaning: 'Workspace of the dev token created at start (embedded, not production)',
  },
  LOMO_API_DEV_USER: { default: 'dev', meaning: 'User of the dev token created at start (embedded, not production)' },
  MONGODB_URL: { meaning: 'Read models on MongoDB 6+ or FerretDB when set; SQLite otherwise' },
  MONGODB_DATABASE: { default: 'lomo', meaning: 'Database of the read models on MongoDB' },
  LOMO_READ_MODELS_PATH: {
    default: '$LOMO_DATA_DIR/read-models.sqlite',
    meaning: 'SQLite file of the read models (embedded)',
  },
  LOMO_PROJECTOR_FEED: {
    default: '<store when LOMO_MODE=embedded, else bus>',
    meaning:
      '`bus`: relayed events (consumer group `projector`); `store`: tail the event store (one hop fewer: embedded mode needs no relay between the store and its own projector)',
  },
  LOMO_PROJECTOR_SWEEP_MS: {
    default: '5000',
    meaning: 'Store sweep that repairs what the feed missed and refreshes lag figures',
  },
  LOMO_PROJECTOR_MAX_LAG_SECONDS: { default: '60', meaning: 'Lag above which the projector reports unhealthy' },
  LOMO_NOTIFIER_SQLITE_PATH: {
    default: '$LOMO_DATA_DIR/notifier.sqlite',
    meaning: 'SQLite file of webhook state (embedded; MongoDB when MONGODB_URL is set)',
  },
  LOMO_WEBHOOK_HTTP_ALLOWLIST: {
    meaning:
      'Hosts exempt in production from the webhook target rules (https only; the host and every address it resolves to public, checked at registration and before each delivery): allowed over plain http and on any address (tests: 127.0.0.1)',
  },
  LOMO_WEBHOOK_MAX_ATTEMPTS: {
    default: '8',
    meaning: 'Failed deliveries of one event before it goes to the dead letters',
  },
  LOMO_WEBHOOK_BACKOFF_INITIAL_MS: {
    default: '2000',
    meaning: 'First retry delay of a webhook delivery (exponential, full jitter)',
  },
  LOMO_WEBHOOK_BACKOFF_MAX_MS: { default: '3600000', meaning: 'Longest retry delay of a webhook delivery' },
  LOMO_WEBHOOK_TIMEOUT_MS: { default: '10000', meaning: 'Timeout of one webhook HTTP call' },
  LOMO_WEBHOOK_STREAMS_IN_FLIGHT: { default: '4', meaning: 'Streams of one webhook delivered at once (each in order)' },
  LOMO_WEBHOOK_BATCH_SIZE: { default: '200', meaning: 'Events a webhook scan reads at a time' },
  LOMO_WEBHOOK_POLL_MS: { default: '500', meaning: 'How often an idle webhook looks for new events' },
  LOMO_WEBHOOK_RECONCILE_MS: {
    default: '2000',
    meaning: 'How often registrations, replays and dead-letter requests are picked up',
  },
  LOMO_WEBHOOK_LEASE_MS: { default: '30000', meaning: 'Lease of a webhook by one notifier instance' },
  LOMO_WEBHOOK_SECRET_GRACE_SECONDS: {
    default: '86400',
    meaning: 'How long previous secrets stay valid after a rotation',
  },
  LOMO_WEBHOOK_MAX_PER_WORKSPACE: { default: '20', meaning: 'Webhooks a workspace may register' },
  LOMO_WEBHOOK_DISABLE_ON_GONE: {
    default: 'true',
    meaning: 'A 410 Gone from a receiver disables its webhook (state kept)',
  },
  LOMO_GENERATION: {
    default: 'on',
    meaning:
      'Paid media generation: the media tools (executor, standalone), the generation service and its upstream (standalone); `off`: the agent has no media tools',
  },
  LOMO_GENERATION_PROVIDER: {
    default: 'simulated',
    meaning:
      'Media generation: `simulated` (the sim-upstream service: image, video, 3D, audio) or `openai` (images and videos on OPENAI_BASE_URL with OPENAI_API_KEY; 3D and audio stay simulated)',
  },
  LOMO_SIM_UPSTREAM_URL: {
    default: '<embedded: started by the app as a child process>',
    meaning:
      'Base URL of the simulated media upstream (apps/sim-upstream); unset in embedded mode, the generation module starts one with its state in $LOMO_DATA_DIR/sim-upstream',
  },
  LOMO_GENERATION_CALLBACK_SECRET: {
    default: '<embedded: generated at each start and handed to the child upstream>',
    meaning:
      'Signing secret of the simulated upstream’s callbacks (at least 16 characters); required with LOMO_SIM_UPSTREAM_URL',
    secret: true,
  },
  LOMO_GENERATION_PUBLIC_URL: {
    default: '<http://HOST:PORT of this process>',
    meaning:
      'Base URL the upstream calls back: `POST {url}/callbacks/generation/{provider}` (served by apps/generation)',
  },
  OPENAI_WEBHOOK_SECRET: {
    meaning: 'Webhook signing secret (`whsec_...`) of the OpenAI project; without it video jobs are polled',
    secret: true,
  },
  LOMO_GENERATION_SILENCE_MS: {
    default: '30000',
    meaning: 'A job silent this long is polled (compensation polling for lost callbacks)',
  },
  LOMO_GENERATION_SUBMIT_TIMEOUT_MS: {
    default: '120000',
    meaning:
      'A submission without an upstream id after this long fails and is refunded, never resubmitted (the crash window of DESIGN.md §4 step 5)',
  },
  LOMO_SECRETS_KEY: {
    default: '<generated once into $LOMO_DATA_DIR/secrets.key unless NODE_ENV=production>',
    meaning:
      'AES-256-GCM key (32 bytes, base64 or base64url) encrypting webhook signing secrets at rest; required in production by api, notifier and standalone',
    secret: true,
  },
  LOMO_TEST_CONTROL: {
    default: 'off',
    meaning:
      "`on`: the drills' test-control surface (simulated clock, fault and mutation switches, `/test-control` for operator tokens; libs/platform/src/test-control/README.md). Refused when NODE_ENV=production; the other LOMO_TEST_* variables need it",
  },
  LOMO_TEST_CLOCK_START: {
    meaning: 'With test control: the instant (ISO 8601) the simulated clock starts at; it then runs with real time',
  },
  LOMO_TEST_FAULTS: {
    meaning:
      'With test control: faults on from the start, comma-separated: `duplicate_callbacks`, `lost_callbacks`, `lost_wakeups` (the crash fault `crash_after_media_order` is armed at run time only, through `POST /test-control/faults`)',
  },
  LOMO_TEST_MUTATIONS: {
    meaning:
      'With test control: safeguards switched off so a drill metric can fail, comma-separated (names in libs/platform/src/test-control/README.md)',
  },
};
