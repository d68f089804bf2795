import { runApp } from '@lomo/platform';
import { RouterAppModule } from './router-app.module';

// Consumes Main's messages (consumer group `router`) and routes each one; /health and /metrics on PORT.
runApp('router', (config, logger) => RouterAppModule.register(config, { logger }));
