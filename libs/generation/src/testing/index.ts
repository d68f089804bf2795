export * from './generation.fixtures';
export * from './fake-openai-media-server';
export * from './generation-process-model';
export * from './generation-arbitraries';
export * from './in-process-simulated-provider';
export * from './callback-receiver';
export * from './sim-upstream-process';
