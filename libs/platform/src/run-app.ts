import 'reflect-metadata';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ConfigError } from '@lomo/contracts';
import { loadConfig, type LomoConfig } from '@lomo/config';
import { createLogger, type Logger } from '@lomo/observability';
import { traceContextMiddleware } from './trace-context.middleware';

/**
 * The one way an app process starts: configuration validated first (a wrong value exits 2 naming
 * the variable), JSON logs, HTTP on PORT (/health, /metrics and whatever the app serves), and a
 * graceful stop on SIGTERM/SIGINT that lets every module close in order, bounded by
 * SHUTDOWN_TIMEOUT_MS so a hung shutdown cannot keep a container alive.
 */
export function runApp(name: string, moduleFor: (config: LomoConfig, logger: Logger) => DynamicModule): void {
  void start(name, moduleFor).catch((error: unknown) => {
    // Some settings are checked only by the modules that need them (the webhook secrets key):
    // they exit like any other configuration error.
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error(
      JSON.stringify({
        level: 'fatal',
        name,
        msg: 'start failed',
        error: error instanceof Error ? error.stack : String(error),
      }),
    );
    process.exit(1);
  });
}

/** What the JSON body parser takes: JSON bodies, except on the raw-body callback routes. */
export function parsesAsJson(req: { url?: string; headers: Record<string, string | string[] | undefined> }): boolean {
  if (req.url?.startsWith('/callbacks/')) return false;
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  return type === 'application/json';
}

async function start(name: string, moduleFor: (config: LomoConfig, logger: Logger) => DynamicModule): Promise<void> {
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
  const logger = createLogger({ level: config.LOG_LEVEL, name });
  const app = await NestFactory.create<NestExpressApplication>(moduleFor(config, logger), {
    logger: ['error', 'warn'],
  });
  app.use(traceContextMiddleware);
  // Nest's own JSON parser reads at most Express's default 100 kB whatever LOMO_API_MAX_BODY_BYTES
  // says (and the API's gate sees only a declared Content-Length); registered here, before init,
  // it replaces Nest's (ExpressAdapter.registerParserMiddleware skips a parser already applied).
  // Callbacks are verified over their raw bytes (libs/application/src/generation): their route
  // reads the body itself, so the JSON parser leaves it alone.
  app.useBodyParser('json', { limit: config.LOMO_API_MAX_BODY_BYTES, type: parsesAsJson });
  await app.listen(config.PORT, config.HOST);
  logger.info(
    { url: await app.getUrl(), mode: config.LOMO_MODE, dataDir: config.LOMO_DATA_DIR },
    `lomo ${name} started`,
  );

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
