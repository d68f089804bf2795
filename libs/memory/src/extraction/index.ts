export {
  memoryCandidate,
  extractionAnswer,
  EXTRACTION_ANSWER_SCHEMA_NAME,
  memoryFingerprint,
  evidenceFingerprint,
  normaliseText,
  foldText,
  type MemoryCandidate,
  type ExtractionAnswer,
} from './memory-candidate';
export {
  memoryText,
  parseMemoryText,
  currentMemories,
  currentVersion,
  sameScope,
  type CurrentMemory,
} from './current-memories';
export { validateCandidates, MAX_CANDIDATES, type CandidateCheck, type ValidCandidate } from './validate-candidates';
export {
  planExtraction,
  toRecordExtraction,
  type ExtractionPlan,
  type PlanExtractionInput,
  type ExtractionVersionDraft,
  type CandidateOutcome,
} from './plan-extraction';
export type { ExtractionRequest, MemoryExtractor } from './memory-extractor.port';
export { OfflineMemoryExtractor, extractOffline, clausesOf, INFER_AFTER_OBSERVATIONS } from './offline-extractor';
export { ModelMemoryExtractor, type ModelMemoryExtractorOptions } from './model-extractor';
