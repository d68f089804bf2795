export * from './document-store';
export * from './projections';
