import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { silentLogger, type Logger } from '@lomo/observability';
import { loadConfig } from '@lomo/config';
import { apiSettings } from '../api-settings';
import { ApiTokens, authSettings, openApiTokenStore, type ApiTokenStore } from '@lomo/auth';
import { DevTokenBootstrap } from './dev-token';

function recordingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger: Logger = {
    debug: () => undefined,
    info: (context) => void lines.push(context),
    warn: () => undefined,
    error: () => undefined,
    child: () => logger,
  };
  return { logger, lines };
}

describe('dev token at start', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-dev-token-'));
  });
  const opened: ApiTokenStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(nodeEnv: 'development' | 'production') {
    const config = loadConfig({ LOMO_DATA_DIR: dir, LOMO_MODE: 'embedded', NODE_ENV: nodeEnv });
    const settings = apiSettings(config);
    const open = async () => {
      const store = await openApiTokenStore(authSettings(config), silentLogger);
      opened.push(store);
      return store;
    };
    const store = await open();
    const { logger, lines } = recordingLogger();
    const tokens = new ApiTokens(store);
    await new DevTokenBootstrap(settings, tokens, logger).onApplicationBootstrap();
    await store.close();
    return { lines, tokens: new ApiTokens(await open()) };
  }

  it('is created once per data directory, logged at every start, and replaced when revoked', async () => {
    const first = await start('development');
    const second = await start('development');
    expect(first.lines).toEqual([expect.objectContaining({ created: true, workspaceId: 'dev', userId: 'dev' })]);
    expect(second.lines).toEqual([expect.objectContaining({ created: false, devToken: first.lines[0].devToken })]);
    expect(await second.tokens.list()).toHaveLength(1);
    expect(statSync(path.join(dir, 'dev-token')).mode & 0o777).toBe(0o600);

    await second.tokens.revoke(String(first.lines[0].tokenId));
    const third = await start('development');
    expect(third.lines).toEqual([expect.objectContaining({ created: true })]);
    expect(third.lines[0].devToken).not.toBe(first.lines[0].devToken);
  });

  it('is never created in production', async () => {
    const run = await start('production');
    expect(run.lines).toEqual([]);
    expect(await run.tokens.list({ includeRevoked: true })).toEqual([]);
  });
});
