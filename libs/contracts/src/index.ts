export * from './errors';
export * from './ids';
export * from './canonical-json';
export * from './envelope';
export * from './streams';
export * from './registry';
export * from './codec';
export * as mainEvents from './events/main';
export * as taskEvents from './events/task';
export * as turnEvents from './events/turn';
export * as artifactEvents from './events/artifact';
export * as generationEvents from './events/generation';
export * as accountEvents from './events/account';
export * as memoryEvents from './events/memory';
export * as operatorEvents from './events/operator';
export { operatorActionKind, type OperatorActionKind } from './events/operator';
export {
  artifactKind,
  artifactAuthor,
  artifactContent,
  flowNode,
  flowEdge,
  flowNodeId,
  documentText,
  type ArtifactKind,
  type ArtifactAuthor,
  type ArtifactContent,
} from './events/artifact';
export { jsonValue, typedError, blobRef, wakeReason } from './events/shared';
export { eventSamples, sampleIds } from './samples/event-samples';
export { renderEventSchemaDocuments } from './schema-documents';
export * from './clock';
export * from './test-control.port';
export * from './messages/wake-up';
export * from './api-errors';
export * from './routing/routing-prompt';
export {
  memoryScope,
  memorySubject,
  memoryKind,
  memoryOrigin,
  evidenceRole,
  evidenceSource,
  forgettingTarget,
  forgettingReport,
  extractionOutcome,
  type MemoryScope,
  type EvidenceRole,
  type EvidenceSource,
  type ForgettingTarget,
  type ForgettingReport,
  type ExtractionOutcome,
} from './events/memory';
