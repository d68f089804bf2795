export * from './artifact-commands.port';
export * from './workspace-read.port';
export * from './artifact-errors';
export * from './artifact';
export * from './document';
export * from './application';
