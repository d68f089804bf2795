export {
  personScope,
  versionDocumentId,
  summaryDocumentId,
  entryFromVersion,
  entryFromSummary,
  SUMMARY_SUBJECT,
  type PersonRef,
  type MemoryIndexEntry,
} from './memory-index-document';
export { MemoryIndexCatalog } from './memory-index-catalog';
export { MemoryIndexer, type MemoryIndexerDeps, type IndexSyncResult } from './memory-indexer';
export {
  IndexedMemoryRecall,
  type IndexedMemoryRecallDeps,
  type IndexedMemoryRecallOptions,
} from './indexed-memory-recall';
export { MemoryRecallTimeoutError } from './recall-errors';
export { isEligible, type EligibilityQuery } from './eligibility';
export { fuseRanks, RRF_K } from './fuse';
