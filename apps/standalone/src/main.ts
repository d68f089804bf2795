import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError } from '@lomo/contracts';
import { loadConfig, type LomoConfig } from '@lomo/config';
import { createLogger } from '@lomo/observability';
import { traceContextMiddleware } from '@lomo/platform';
import { StandaloneModule } from './standalone.module';

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
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'standalone' });
  const app = await NestFactory.create(StandaloneModule.register(config, { logger }), { logger: ['error', 'warn'] });
  app.use(traceContextMiddleware);
  await app.listen(config.PORT, config.HOST);
  logger.info(
    { url: await app.getUrl(), mode: config.LOMO_MODE, dataDir: config.LOMO_DATA_DIR },
    'lomo standalone started',
  );

  // Graceful stop: the platform stops the relay (saving its checkpoint), the bus and the store;
  // a hung shutdown must not keep a container alive for ever.
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
