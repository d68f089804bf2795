/**
 * The embedded backend (`apps/standalone`) started in the bench's own process, as `npm start`
 * runs it but on an ephemeral port, with API tokens of any workspace.
 */
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@lomo/config';
import { silentLogger } from '@lomo/observability';
import { traceContextMiddleware } from '@lomo/platform';
import { API_TOKENS } from '@lomo/api';
import type { ApiTokens } from '@lomo/auth';
import { StandaloneModule } from '../apps/standalone/src/standalone.module';

export interface InProcessStandalone {
  url: string;
  /** A new API token of this workspace and user. */
  token(workspaceId: string, userId: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * `apps/standalone` in this process, as `npm start` runs it (every app, SQLite, in-process bus),
 * on an ephemeral port of 127.0.0.1 with its data in `dataDir`. `env` adds or overrides variables
 * (the process environment is not read); the API's rate limit is lifted for a benchmark.
 */
export async function startStandaloneInProcess(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<InProcessStandalone> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOMO_MODE: 'embedded',
    LOMO_DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOMO_API_RATE_LIMIT_BURST: '10000',
    LOMO_API_RATE_LIMIT_PER_SECOND: '10000',
    ...env,
  });
  const app: INestApplication = await NestFactory.create(StandaloneModule.register(config, { logger: silentLogger }), {
    logger: ['error', 'warn'],
  });
  app.use(traceContextMiddleware);
  await app.listen(config.PORT, config.HOST);
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    url,
    async token(workspaceId, userId) {
      const issued = await app.get<ApiTokens>(API_TOKENS).issue({ workspaceId, userId, name: 'bench' });
      return issued.secret;
    },
    close: () => app.close(),
  };
}
