import { runApp } from '@lomo/platform';
import { ExecutorAppModule } from './executor-app.module';

/**
 * The executor as its own process. SIGTERM closes the app: the runtime stops taking work, releases
 * every lease it holds (another executor takes over at once), then the platform closes the bus and
 * the store.
 */
runApp('executor', (config, logger) => ExecutorAppModule.register(config, { logger }));
