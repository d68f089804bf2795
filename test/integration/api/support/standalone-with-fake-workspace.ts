import { runApp } from '@lomo/platform';
import { FakeWorkspaceModule } from '@lomo/workspace/testing';
import { StandaloneModule } from '../../../../apps/standalone/src/standalone.module';

// The standalone as `npm start` runs it, with the workspace's ports bound to the in-memory fake:
// the API's artefact slice and the agent's workspace tools run against it over real HTTP.
runApp('standalone', (config, logger) =>
  StandaloneModule.register(config, { logger, workspace: FakeWorkspaceModule.register() }),
);
