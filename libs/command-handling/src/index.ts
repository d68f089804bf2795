// The one command layer: every production write to the event store goes through handleCommand, an
// AggregateStream's fenced append or appendCopies (docs/architecture.md, "Writing").
export * from './domain-event';
export * from './write-context';
export * from './aggregate-stream';
export * from './handle-command';
export * from './decide-all';
export * from './append-copies';
