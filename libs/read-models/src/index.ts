export * from './document-store';
export * from './projections';
export * from './read-side/projector-tokens';
export { projectorSettings, type ProjectorSettings } from './read-side/projector-settings';
export { createDocumentStore } from './read-side/create-document-store';
