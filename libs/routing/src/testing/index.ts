export { MinimalSearchIndex } from './in-memory-search-index';
export { StandInHashingEmbedder } from './hashing-embedder';
export { InMemoryRoutingIndex, aRoutingDocument } from './in-memory-routing-index';
