export * from './artifact-commands.port';
export * from './workspace-read.port';
export * from './artifact-errors';
export * from './projection/workspace-documents';
export * from './projection/workspace.projection';
export * from './projection/document-store-workspace-read-model';
export { ProjectedArtifactBindings } from './projection/projected-artifact-bindings';
export * from './notices/plan-notices';
export * from './notices/notice-fanout';
