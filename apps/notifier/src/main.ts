import { runApp } from '@lomo/platform';
import { NotifierAppModule } from './notifier-app.module';

/**
 * The notifier as its own process. SIGTERM closes the app: the engine stops its runners (requests
 * in flight finish within their timeout, their outcome and the cursors are saved, leases are
 * released for another instance), then the platform closes the store. /health and /metrics
 * (lomo_webhook_deliveries_total) are served on PORT.
 */
runApp('notifier', (config, logger) => NotifierAppModule.register(config, { logger }));
