export { WorkspaceModule, WORKSPACE_TEXT_BLOBS, textBlobsFrom, type WorkspaceModuleOptions } from './workspace.module';
export { WorkspaceReadSideModule } from './workspace-read-side.module';
