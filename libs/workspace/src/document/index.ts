export * from './document-text-store';
export * from './text-cache';
