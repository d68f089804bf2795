import { runScenario } from './harness/run-scenario';
import { loadScenarios } from './harness/scenario-file';

// The cost cap of a drill against a paid endpoint (test/drills/README.md "Against a real
// OpenAI-compatible endpoint"): `npm run drills -- --max-model-tokens N` gives the app
// LOMO_MODEL_TOKEN_BUDGET=N. Here the offline model plays the paid one: its reported usage is what
// the cap counts, exactly as an endpoint's would be.

const CAP = 3_000;

describe('the cost cap (--max-model-tokens, LOMO_MODEL_TOKEN_BUDGET)', () => {
  it('stops the drill as soon as the app refuses a model call, with the tokens spent no more than one call past the cap', async () => {
    const [posters] = loadScenarios(['poster-series']);
    const started = Date.now();
    const r = await runScenario(posters, { env: { LOMO_MODEL_TOKEN_BUDGET: String(CAP) } });

    expect(r.completed).toBe(false);
    expect(r.passed).toBe(false);
    expect(r.error).toMatch(/^stopped: The model token budget is spent: \d+ of 3000 tokens/);
    // It stopped on the refusal, not on a step's 120 s wait.
    expect(Date.now() - started).toBeLessThan(60_000);
    // The turn that hit the cap failed with the typed error; the log's tokens went past the cap
    // by at most the call that crossed it (the offline model's step prompts are under 4 000 tokens).
    expect(r.metrics!.turnFailures).toContain('MODEL_BUDGET_EXHAUSTED');
    expect(r.metrics!.figures.model_tokens).toBeGreaterThanOrEqual(CAP);
    expect(r.metrics!.figures.model_tokens).toBeLessThan(CAP + 4_000);
  }, 180_000);
});
