export * from './generation-provider.port';
export * from './generation-errors';
