import { runApp } from '@lomo/platform';
import { ApiAppModule } from './api-app.module';

// GraphQL on PORT (/graphql), /health and /metrics.
runApp('api', (config, logger) => ApiAppModule.register(config, { logger }));
