import { ConfigError } from '@lomo/contracts';
import { loadConfig } from './load-config';
import { configShape, configVariables } from './config.schema';
import { decodeSecretsKey, loadSecretsKey } from './secrets-key';

describe('loadConfig', () => {
  it('gives embedded defaults on an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      LOMO_MODE: 'embedded',
      PORT: 3000,
      LOMO_BUS: 'in-process',
      LOMO_SQLITE_SYNCHRONOUS: 'FULL',
    });
    expect(c.LOMO_SQLITE_PATH).toMatch(/\.data\/events\.sqlite$/);
  });

  it('feeds the projector from the store in embedded mode and from the bus in distributed mode, unless told', () => {
    expect(loadConfig({}).LOMO_PROJECTOR_FEED).toBe('store');
    expect(loadConfig({ LOMO_MODE: 'distributed' }).LOMO_PROJECTOR_FEED).toBe('bus');
    expect(loadConfig({ LOMO_PROJECTOR_FEED: 'bus' }).LOMO_PROJECTOR_FEED).toBe('bus');
    expect(loadConfig({ LOMO_MODE: 'distributed', LOMO_PROJECTOR_FEED: 'store' }).LOMO_PROJECTOR_FEED).toBe('store');
  });

  it('stops with a message naming the variable on a wrong value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ LOMO_BUS: 'carrier-pigeon' })).toThrow(/LOMO_BUS/);
  });

  it('refuses unknown LOMO_ variables so a typo does not silently fall back to a default', () => {
    expect(() => loadConfig({ LOMO_BUSS: 'kafka' })).toThrow(/LOMO_BUSS: unknown variable/);
  });

  it('requires KAFKA_BROKERS when the bus is Kafka, and checks its form', () => {
    expect(() => loadConfig({ LOMO_BUS: 'kafka' })).toThrow(/KAFKA_BROKERS: required/);
    expect(() => loadConfig({ LOMO_BUS: 'kafka', KAFKA_BROKERS: 'nope' })).toThrow(/KAFKA_BROKERS/);
    expect(loadConfig({ LOMO_BUS: 'kafka', KAFKA_BROKERS: '127.0.0.1:9092' }).KAFKA_BROKERS).toBe('127.0.0.1:9092');
  });

  it('documents every variable it reads', () => {
    expect(Object.keys(configVariables).sort()).toEqual(Object.keys(configShape).sort());
  });

  it('reports every wrong variable at once', () => {
    try {
      loadConfig({ PORT: '-1', LOG_LEVEL: 'loud' });
      throw new Error('expected a ConfigError');
    } catch (e) {
      expect((e as ConfigError).variables.map((v) => v.variable).sort()).toEqual(['LOG_LEVEL', 'PORT']);
    }
  });
});

describe('loadConfig: model and runtime settings', () => {
  it('defaults to the offline model and a worker id made of host and pid', () => {
    const c = loadConfig({});
    expect(c.LOMO_MODEL_PROVIDER).toBe('offline');
    expect(c.LOMO_WORKER_ID).toMatch(new RegExp(`-${process.pid}$`));
    expect(c.workerIdFromEnv).toBe(false);
    expect(loadConfig({ LOMO_WORKER_ID: 'executor-0' })).toMatchObject({
      LOMO_WORKER_ID: 'executor-0',
      workerIdFromEnv: true,
    });
    expect(c.LOMO_WATCHDOG_INTERVAL_MS).toBe(2_000);
    expect(c.LOMO_LEASE_MS).toBe(10_000);
  });

  it('reads the context settings: window, history share, tool strategy and allowed_tools support', () => {
    expect(loadConfig({})).toMatchObject({
      LOMO_MODEL_CONTEXT_TOKENS: 128_000,
      LOMO_CONTEXT_HISTORY_SHARE: 0.5,
      LOMO_TOOL_STRATEGY: 'dynamic',
      LOMO_OPENAI_ALLOWED_TOOLS: 'on',
    });
    expect(
      loadConfig({
        LOMO_MODEL_CONTEXT_TOKENS: '32768',
        LOMO_CONTEXT_HISTORY_SHARE: '0.3',
        LOMO_TOOL_STRATEGY: 'masked',
        LOMO_OPENAI_ALLOWED_TOOLS: 'off',
      }),
    ).toMatchObject({
      LOMO_MODEL_CONTEXT_TOKENS: 32_768,
      LOMO_CONTEXT_HISTORY_SHARE: 0.3,
      LOMO_TOOL_STRATEGY: 'masked',
      LOMO_OPENAI_ALLOWED_TOOLS: 'off',
    });
    expect(() => loadConfig({ LOMO_MODEL_CONTEXT_TOKENS: '100' })).toThrow(/LOMO_MODEL_CONTEXT_TOKENS/);
    expect(() => loadConfig({ LOMO_CONTEXT_HISTORY_SHARE: '1' })).toThrow(/LOMO_CONTEXT_HISTORY_SHARE/);
    expect(() => loadConfig({ LOMO_CONTEXT_HISTORY_SHARE: 'half' })).toThrow(/LOMO_CONTEXT_HISTORY_SHARE/);
    expect(() => loadConfig({ LOMO_TOOL_STRATEGY: 'all' })).toThrow(/LOMO_TOOL_STRATEGY/);
    expect(() => loadConfig({ LOMO_OPENAI_ALLOWED_TOOLS: 'true' })).toThrow(/LOMO_OPENAI_ALLOWED_TOOLS/);
  });

  it('requires an API key for the openai provider', () => {
    expect(() => loadConfig({ LOMO_MODEL_PROVIDER: 'openai' })).toThrow(/OPENAI_API_KEY: required/);
  });

  it('reads the embedding settings, leaving the embedder to follow the model when unset', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ LOMO_EMBEDDING_MODEL: 'text-embedding-3-small' });
    expect(c.LOMO_EMBEDDING_PROVIDER).toBeUndefined();
    expect(c.LOMO_EMBEDDING_DIMENSIONS).toBeUndefined();
    expect(loadConfig({ LOMO_EMBEDDING_PROVIDER: 'hashing', LOMO_EMBEDDING_DIMENSIONS: '512' })).toMatchObject({
      LOMO_EMBEDDING_PROVIDER: 'hashing',
      LOMO_EMBEDDING_DIMENSIONS: 512,
    });
    expect(() => loadConfig({ LOMO_EMBEDDING_PROVIDER: 'openai' })).toThrow(/OPENAI_API_KEY: required/);
    expect(() => loadConfig({ LOMO_EMBEDDING_PROVIDER: 'word2vec' })).toThrow(/LOMO_EMBEDDING_PROVIDER/);
  });
});

describe('loadConfig: LOMO_SECRETS_KEY', () => {
  const key = Buffer.from('0123456789abcdef0123456789abcdef');

  it('takes 32 bytes in base64 or base64url, padded or not, ignoring surrounding whitespace', () => {
    for (const text of [
      key.toString('base64'),
      key.toString('base64url'),
      key.toString('base64').replace(/=+$/, ''),
      ` ${key.toString('base64')}\n`,
    ]) {
      expect(decodeSecretsKey(text)).toEqual(key);
      expect(loadSecretsKey(loadConfig({ NODE_ENV: 'production', LOMO_SECRETS_KEY: text }))).toEqual({
        key,
        source: 'env',
        created: false,
      });
    }
  });

  it('stops the start on a key of another length or form, without echoing the value', () => {
    const bad = [
      Buffer.alloc(16, 7).toString('base64'),
      Buffer.alloc(33, 7).toString('base64'),
      `${key.toString('hex')}`,
      'not a key!',
    ];
    for (const value of bad) {
      expect(decodeSecretsKey(value)).toBeUndefined();
      expect(() => loadConfig({ LOMO_SECRETS_KEY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ LOMO_SECRETS_KEY: value })).toThrow(/LOMO_SECRETS_KEY: must be 32 random bytes/);
      expect(() => loadConfig({ LOMO_SECRETS_KEY: value })).not.toThrow(value);
    }
  });

  it('is required in production by the processes that hold webhooks', () => {
    const config = loadConfig({ NODE_ENV: 'production', LOMO_DATA_DIR: '/nonexistent' });
    expect(() => loadSecretsKey(config)).toThrow(ConfigError);
    expect(() => loadSecretsKey(config)).toThrow(/LOMO_SECRETS_KEY: required when NODE_ENV=production/);
  });
});

describe('loadConfig: where tool state and blobs live', () => {
  const mongo = { MONGODB_URL: 'mongodb://db:27017' };

  it('stays on SQLite and the filesystem in embedded mode, even with MONGODB_URL set', () => {
    for (const env of [{}, mongo]) {
      const c = loadConfig(env);
      expect([c.LOMO_TOOLS_STORE, c.LOMO_BLOB_STORE]).toEqual(['sqlite', 'filesystem']);
    }
  });

  it('moves to MongoDB in distributed mode when MONGODB_URL is set, and only then', () => {
    const shared = loadConfig({ LOMO_MODE: 'distributed', ...mongo });
    expect([shared.LOMO_TOOLS_STORE, shared.LOMO_BLOB_STORE]).toEqual(['mongodb', 'mongodb']);
    const local = loadConfig({ LOMO_MODE: 'distributed' });
    expect([local.LOMO_TOOLS_STORE, local.LOMO_BLOB_STORE]).toEqual(['sqlite', 'filesystem']);
  });

  it('takes an explicit choice, and refuses mongodb without MONGODB_URL naming the variable', () => {
    const pinned = loadConfig({ LOMO_MODE: 'distributed', ...mongo, LOMO_TOOLS_STORE: 'sqlite' });
    expect(pinned.LOMO_TOOLS_STORE).toBe('sqlite');
    expect(() => loadConfig({ LOMO_BLOB_STORE: 'mongodb' })).toThrow(/LOMO_BLOB_STORE: mongodb needs MONGODB_URL/);
    expect(() => loadConfig({ LOMO_TOOLS_STORE: 's3' })).toThrow(/LOMO_TOOLS_STORE/);
  });
});
