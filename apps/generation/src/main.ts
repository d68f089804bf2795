import { runApp } from '@lomo/platform';
import { GenerationAppModule } from './generation-app.module';

/**
 * The generation service as its own process. SIGTERM stops taking bus work and callbacks, waits
 * for the steps in flight (every one is idempotent, so one cut short by the shutdown timeout is
 * repeated by the next process's sweep), flushes the callback ledger, then the platform closes.
 */
runApp('generation', (config, logger) => GenerationAppModule.register(config, { logger }));
