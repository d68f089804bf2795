import { runApp } from '@lomo/platform';
import { StandaloneModule } from './standalone.module';

// Every app in one process on the embedded adapters (`npm start`).
runApp('standalone', (config, logger) => StandaloneModule.register(config, { logger }));
