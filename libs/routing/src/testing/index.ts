export { FakeArtifactBindings } from './fake-artifact-bindings';
export { FakeRoutingCandidates } from './fake-routing-candidates';
// Test support for @lomo/routing: the SearchIndex contract suite and the in-memory index.
export * from './contract/search-index.contract';
export * from './in-memory-search-index';
export { InMemoryRoutingIndex, aRoutingDocument } from './in-memory-routing-index';
