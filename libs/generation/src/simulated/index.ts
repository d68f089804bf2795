export * from './callback-signing';
export * from './prices';
export * from './upstream-config';
export * from './upstream-state';
export * from './simulated-upstream';
export * from './simulated-upstream-server';
export * from './simulated-generation-provider';
// Namespaced: generic names such as encodePng stay out of @lomo/generation's flat barrel.
export * as simulatedMedia from './media';
