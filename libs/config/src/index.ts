export * from './config.schema';
export * from './load-config';
export * from './secrets-key';
export const LOMO_CONFIG = Symbol('LOMO_CONFIG');
export * from './config-table';
