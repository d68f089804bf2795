export * from './artifact-commands.port';
export * from './workspace-read.port';
export * from './artifact-errors';
export * from './artifact-change-notices';
export { createWorkspaceTools } from './tools/create-workspace-tools';
export type { WorkspaceToolDeps } from './tools/workspace-tool-deps';
export { MAX_DOCUMENT_CHARS } from './tools/document-tools';
