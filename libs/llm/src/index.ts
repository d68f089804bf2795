export * from './model-provider.port';
export * from './model-errors';
export * from './token-budget';
export { describeRequest } from './describe-request';
export {
  completeStructured,
  structuredOutput,
  type CompleteStructuredOptions,
  type StructuredResult,
  type StructuredSpec,
} from './structured/structured-output';
export { estimateTokens, estimateUsage } from './token-estimate';
export * from './tokenizer.port';
export { BpeTokenizer, type BpeEncoding } from './tokenizer/bpe-tokenizer';
export { EstimateTokenizer } from './tokenizer/estimate-tokenizer';
export { ChatTokenizer, serializeTool } from './tokenizer/chat-tokenizer';
export { CountCache, COUNT_CACHE_DEFAULTS, type CountCacheLimits } from './tokenizer/count-cache';
export { encodingForModel, tokenizerFor, tokenizerForEncoding, tokenizerForModel } from './tokenizer/tokenizer-for';
export {
  createModelProvider,
  DEFAULT_OPENAI_MODEL,
  MODEL_CONFIG_ENV,
  MODEL_PROVIDER_KINDS,
  type ModelProviderConfig,
  type ModelProviderKind,
} from './create-model-provider';
export { OpenAIModelProvider } from './openai/openai-model-provider';
export { OPENAI_DEFAULTS, type OpenAIModelProviderOptions } from './openai/openai-options';
export type { MaxTokensParameter } from './openai/openai-request';
export { OfflineModelProvider, OFFLINE_MODEL_NAME } from './offline/offline-model-provider';
export { ReactiveModelProvider, REACTIVE_MODEL_NAME } from './reactive/reactive-model-provider';
export {
  ScriptedModelProvider,
  type RecordedRequest,
  type ScriptedCall,
  type ScriptedModelProviderOptions,
  type ScriptedReply,
  type ScriptedStep,
} from './scripted/scripted-model-provider';
export { match, type RequestMatcher } from './scripted/request-matchers';
// The offline model's language detector is the one the rest of the system speaks with too.
export { detectLanguage, replyLanguage, OFFLINE_LANGUAGES, type OfflineLanguage } from './offline/language';
export { chineseScript, toTraditional, type ChineseScript } from './offline/han-script';
export {
  routerPhrase,
  ROUTER_PHRASE_KINDS,
  type RouterPhraseKind,
  type RouterPhraseVars,
} from './offline/router-phrases';
export { routeOffline, scoreCandidates, ROUTING_POLICY } from './offline/routing-policy';
export { checkDuplicateOffline, DUPLICATE_POLICY } from './offline/duplicate-policy';
export * from './embedding-provider.port';
export { HashingEmbeddingProvider, HASHING_EMBEDDING_DEFAULTS } from './embeddings/hashing-embedding-provider';
export { ConceptEmbeddingProvider, CONCEPT_EMBEDDING_DEFAULTS } from './embeddings/concept-embedding-provider';
export {
  OnnxEmbeddingProvider,
  ONNX_EMBEDDING_DEFAULTS,
  onnxModelsPresent,
  type OnnxEmbeddingModel,
  type OnnxEmbeddingProviderOptions,
} from './embeddings/onnx/onnx-embedding-provider';
export { ONNX_MODELS, type OnnxModelSpec } from './embeddings/onnx/onnx-models';
export { WordPieceTokenizer, TokenizerFileError } from './embeddings/onnx/wordpiece-tokenizer';
export { CREATIVE_LEXICON, type LexiconConcept } from './embeddings/creative-lexicon';
export {
  OpenAIEmbeddingProvider,
  OPENAI_EMBEDDING_DEFAULTS,
  type OpenAIEmbeddingProviderOptions,
} from './embeddings/openai-embedding-provider';
export {
  createEmbeddingProvider,
  embeddingProviderKind,
  EMBEDDING_CONFIG_ENV,
  EMBEDDING_PROVIDER_KINDS,
  type EmbeddingProviderConfig,
  type EmbeddingProviderKind,
} from './embeddings/create-embedding-provider';
