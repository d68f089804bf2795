import { runApp } from '@lomo/platform';
import { ProjectorAppModule } from './projector-app.module';

/**
 * The projector as its own process. SIGTERM closes the app: the feed stops (committing what it
 * finished), the runner waits for its batch, then the platform closes the bus and the store.
 * /health and /metrics are served on PORT.
 */
runApp('projector', (config, logger) => ProjectorAppModule.register(config, { logger }));
