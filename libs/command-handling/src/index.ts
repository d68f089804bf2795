// The one command layer: every production write to the event store goes through handleCommand or
// an AggregateStream's fenced append (docs/architecture.md, "Writing").
export * from './domain-event';
export * from './write-context';
export * from './aggregate-stream';
export * from './handle-command';
export * from './decide-all';
