// Test support for @lomo/llm: the provider contract suite and a local server speaking the OpenAI wire format.
export { describeModelProviderContract, type ModelProviderHarness } from './model-provider.contract';
export {
  chatCompletionBody,
  embeddingsBody,
  errorReply,
  startFakeOpenAIServer,
  type FakeOpenAIReply,
  type FakeOpenAIRequest,
  type FakeOpenAIResponder,
  type FakeOpenAIServer,
} from './fake-openai-server';
export { prefixBytesOf, prefixPartsOf, type RequestPrefixParts } from './request-prefix';
export { startReactiveOpenAIServer, type ReactiveOpenAIServer } from '../reactive/testing/reactive-openai-server';
