export * from './provider';
export * from './job';
export * from './account';
export * from './openai';
export * from './simulated';
