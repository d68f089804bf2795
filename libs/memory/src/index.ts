export * from './extraction';
export * from './forgetting';
export * from './recall';
