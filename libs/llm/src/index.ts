export * from './model-provider.port';
export * from './model-errors';
export { describeRequest } from './describe-request';
export { estimateTokens, estimateUsage } from './token-estimate';
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
export {
  ScriptedModelProvider,
  type RecordedRequest,
  type ScriptedCall,
  type ScriptedModelProviderOptions,
  type ScriptedReply,
  type ScriptedStep,
} from './scripted/scripted-model-provider';
export { match, type RequestMatcher } from './scripted/request-matchers';
// Test support (defines jest suites only when called; no test-framework import at load time).
export { describeModelProviderContract, type ModelProviderHarness } from './testing/model-provider.contract';
export {
  chatCompletionBody,
  errorReply,
  startFakeOpenAIServer,
  type FakeOpenAIReply,
  type FakeOpenAIRequest,
  type FakeOpenAIResponder,
  type FakeOpenAIServer,
} from './openai/fake-openai-server';
