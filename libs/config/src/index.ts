export * from './config.schema';
export * from './load-config';
export const LOMO_CONFIG = Symbol('LOMO_CONFIG');
export * from './config-table';
