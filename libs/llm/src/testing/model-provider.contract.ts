import { FINISH_REASONS, type CompletionRequest, type ModelProvider } from '../model-provider.port';

export interface ModelProviderHarness {
  /** Must answer a plain "Hello" (no tools) with a text reply, as often as asked. */
  provider: ModelProvider;
  close?: () => Promise<void>;
}

const hello = (signal?: AbortSignal): CompletionRequest => ({
  messages: [{ role: 'user', content: 'Hello' }],
  tools: [],
  signal,
});

/**
 * The behaviour every ModelProvider adapter shares, whatever sits behind it. Call at the top
 * level of a spec file; defines jest suites only when called (no test-framework import at load).
 */
export function describeModelProviderContract(name: string, setup: () => Promise<ModelProviderHarness>): void {
  describe(`ModelProvider contract: ${name}`, () => {
    let harness: ModelProviderHarness;
    beforeEach(async () => {
      harness = await setup();
    });
    afterEach(async () => {
      await harness.close?.();
    });

    it('answers a plain message with a well-formed result', async () => {
      const result = await harness.provider.complete(hello());
      expect(result.text.length).toBeGreaterThan(0);
      expect(result.toolCalls).toEqual([]);
      expect(result.finishReason).toBe('stop');
      expect(FINISH_REASONS).toContain(result.finishReason);
      expect(result.model.length).toBeGreaterThan(0);
      for (const n of [result.usage.inputTokens, result.usage.outputTokens]) {
        expect(Number.isInteger(n) && n >= 0).toBe(true);
      }
    });

    it('rejects with MODEL_ABORTED, not retriable, when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(harness.provider.complete(hello(controller.signal))).rejects.toMatchObject({
        code: 'MODEL_ABORTED',
        retriable: false,
      });
    });

    it('has a name', () => {
      expect(harness.provider.name).toMatch(/^[a-z][a-z0-9-]*$/);
    });
  });
}
