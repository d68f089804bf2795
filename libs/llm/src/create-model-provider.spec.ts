import { ConfigError } from '@lomo/contracts';
import { createModelProvider, MODEL_CONFIG_ENV, type ModelProviderConfig } from './create-model-provider';
import { OfflineModelProvider } from './offline/offline-model-provider';
import { OpenAIModelProvider } from './openai/openai-model-provider';
import { ReactiveModelProvider } from './reactive/reactive-model-provider';
import { ScriptedModelProvider } from './scripted/scripted-model-provider';

describe('createModelProvider', () => {
  it('defaults to the offline policy', () => {
    expect(createModelProvider()).toBeInstanceOf(OfflineModelProvider);
  });

  it('builds the openai and scripted adapters', async () => {
    expect(
      createModelProvider({ provider: 'openai', apiKey: 'sk-x', baseUrl: 'http://127.0.0.1:1/v1' }),
    ).toBeInstanceOf(OpenAIModelProvider);
    const scripted = createModelProvider({ provider: 'scripted', script: [{ reply: { text: 'hi' } }] });
    expect(scripted).toBeInstanceOf(ScriptedModelProvider);
    await expect(scripted.complete({ messages: [], tools: [] })).resolves.toMatchObject({ text: 'hi' });
  });

  it('builds the reactive test policy for LOMO_MODEL_PROVIDER=reactive', async () => {
    const reactive = createModelProvider({ provider: 'reactive' });
    expect(reactive).toBeInstanceOf(ReactiveModelProvider);
    await expect(
      reactive.complete({ messages: [{ role: 'user', content: 'hello' }], tools: [] }),
    ).resolves.toMatchObject({ finishReason: 'stop' });
  });

  it('fails at start-up, naming the environment variables, on a bad openai configuration', () => {
    const attempt = () => createModelProvider({ provider: 'openai', baseUrl: 'ftp://x', timeoutMs: 0 });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/OPENAI_API_KEY .*OPENAI_BASE_URL .*LOMO_MODEL_TIMEOUT_MS/);
  });

  it('rejects an unknown provider', () => {
    const config = { provider: 'gemini' } as unknown as ModelProviderConfig;
    expect(() => createModelProvider(config)).toThrow(/Unknown model provider "gemini"/);
  });

  it('documents every option it reads', () => {
    const options = Object.values(MODEL_CONFIG_ENV).map((v) => v.option);
    expect(options.sort()).toEqual([
      'apiKey',
      'baseUrl',
      'maxRetries',
      'model',
      'provider',
      'sendAllowedTools',
      'timeoutMs',
    ]);
  });
});
