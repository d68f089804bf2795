import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError } from '@lomo/contracts';
import { loadConfig, type LomoConfig } from '@lomo/config';
import { createLogger } from '@lomo/observability';
import { traceContextMiddleware } from '@lomo/platform';
import { ProjectorAppModule } from './projector-app.module';

/**
 * The projector as its own process. SIGTERM closes the app: the feed stops (committing what it
 * finished), the runner waits for its batch, then the platform closes the bus and the store.
 * /health, /health/projector and /metrics are served on PORT.
 */
async function main(): Promise<void> {
  let config: LomoConfig;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'projector' });
  const app = await NestFactory.create(ProjectorAppModule.register(config, { logger }), { logger: ['error', 'warn'] });
  app.use(traceContextMiddleware);
  await app.listen(config.PORT, config.HOST);
  logger.info({ url: await app.getUrl(), mode: config.LOMO_MODE }, 'lomo projector started');

  const stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'stop requested');
    setTimeout(() => process.exit(1), config.SHUTDOWN_TIMEOUT_MS).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ error: error instanceof Error ? error.stack : String(error) }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main().catch((error: unknown) => {
  console.error(
    JSON.stringify({
      level: 'fatal',
      msg: 'start failed',
      error: error instanceof Error ? error.stack : String(error),
    }),
  );
  process.exit(1);
});
