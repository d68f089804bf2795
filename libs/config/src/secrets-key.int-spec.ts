import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ConfigError } from '@lomo/contracts';
import { loadConfig } from './load-config';
import { loadSecretsKey, SECRETS_KEY_FILE } from './secrets-key';

const root = path.resolve(__dirname, '../../..');

describe('LOMO_SECRETS_KEY unset outside production: a key kept in the data directory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-secrets-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const load = (nodeEnv: 'development' | 'test' = 'development') =>
    loadSecretsKey(loadConfig({ LOMO_DATA_DIR: path.join(dir, 'data'), NODE_ENV: nodeEnv }));

  it('is generated once (mode 0600) and read back at every start', () => {
    const first = load();
    const file = path.join(dir, 'data', SECRETS_KEY_FILE);
    expect(first).toMatchObject({ source: 'file', file, created: true });
    expect(first.key).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = load('test');
    expect(second).toMatchObject({ source: 'file', file, created: false });
    expect(second.key).toEqual(first.key);
    expect(readdirSync(path.join(dir, 'data'))).toEqual([SECRETS_KEY_FILE]);
  });

  it('never replaces a damaged file: secrets sealed with it would be lost', () => {
    const file = path.join(dir, SECRETS_KEY_FILE);
    writeFileSync(file, 'half a key\n');
    const config = loadConfig({ LOMO_DATA_DIR: dir, NODE_ENV: 'development' });
    expect(() => loadSecretsKey(config)).toThrow(ConfigError);
    expect(() => loadSecretsKey(config)).toThrow(/LOMO_SECRETS_KEY: .*secrets\.key does not hold 32 random bytes/);
    expect(readFileSync(file, 'utf8')).toBe('half a key\n');
  });

  it('is the same key for processes starting together on one data directory', async () => {
    const script = `process.stdout.write(require('@lomo/config').loadSecretsKey({ LOMO_DATA_DIR: process.argv[1], NODE_ENV: 'development' }).key.toString('hex'))`;
    const run = () =>
      promisify(execFile)(process.execPath, ['-r', './scripts/register.cjs', '-e', script, dir], { cwd: root });
    const keys = (await Promise.all(Array.from({ length: 4 }, run))).map((r) => r.stdout);
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(keys).size).toBe(1);
    expect(readdirSync(dir)).toEqual([SECRETS_KEY_FILE]);
  });
});
