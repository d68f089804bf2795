// The repair part of @lomo/operator; re-exported by the barrel.
export {};
export * from './relay';
export * from './dead-letters';
export * from './projections';
