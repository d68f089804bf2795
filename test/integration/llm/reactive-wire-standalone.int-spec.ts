import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { startReactiveOpenAIServer, type ReactiveOpenAIServer } from '@lomo/llm/testing';
import { startStandaloneApi, type RunningApi } from '../api/support/standalone-api';
import { POLLING_ENV, posterTwice } from './support/poster-twice';

// The same poster request as reactive-model-standalone.int-spec.ts, but the built standalone app
// runs its `openai` adapter (LOMO_MODEL_PROVIDER=openai) against the reactive policy served over
// the chat-completions wire format (@lomo/llm/testing): the path a drill takes to exercise the
// adapter with the reactive policy. Every answer the app got came over the wire.

const root = path.resolve(__dirname, '../../..');

describe('the reactive model over the wire: the built standalone app on its openai adapter', () => {
  let api: RunningApi;
  let wire: ReactiveOpenAIServer;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.cjs'], { cwd: root, stdio: 'ignore' });
    // Memory extraction asks the model with openai; no memory is what this test needs of it.
    wire = await startReactiveOpenAIServer({
      structured: (name) => (name === 'extract_memories' ? JSON.stringify({ candidates: [] }) : undefined),
    });
    api = await startStandaloneApi(
      {
        LOMO_MODEL_PROVIDER: 'openai',
        OPENAI_BASE_URL: wire.baseUrl,
        OPENAI_API_KEY: 'reactive-wire',
        LOMO_MODEL: 'reactive',
        // The wire server answers chat completions only; embeddings stay local.
        LOMO_EMBEDDING_PROVIDER: 'hashing',
        ...POLLING_ENV,
      },
      { entry: 'dist/apps/standalone/main.js' },
    );
  }, 90_000);
  afterAll(async () => {
    await api?.stop();
    await wire?.close();
  });

  it('completes a poster request through the adapter, and reuses the delivered poster when asked again', async () => {
    const { first, second } = await posterTwice(api);
    expect(first).toEqual([expect.objectContaining({ phase: 'completed', artifactId: expect.any(String) })]);
    expect(second).toHaveLength(1);
    // Routing, the task's steps and the extractions: every one over the wire.
    expect(wire.answered()).toBeGreaterThanOrEqual(4);
  }, 180_000);
});
