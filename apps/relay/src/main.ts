import { runApp } from '@lomo/platform';
import { RelayAppModule } from './relay-app.module';

runApp('relay', (config, logger) => RelayAppModule.register(config, { logger }));
