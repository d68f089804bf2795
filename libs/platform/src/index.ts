export * from './platform.module';
export * from './health-check';
export * from './trace-context.middleware';
export { RELAY } from './create-relay';
export { createBus } from './create-bus';
export * from './message-trace-context';
export * from './run-app';
export { DocumentRelayLeaseStore } from './document-relay-lease-store';
export { openBlobStore, openEventStore } from './open-stores';
