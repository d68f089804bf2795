export * from './memory-stream-cache';
export * from './memory-profile-snapshot';
export * from './render-profile';
