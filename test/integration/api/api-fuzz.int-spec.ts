import { FUZZ_ENV, fuzzFailed, runFuzz } from './support/api-fuzzer';
import { startStandaloneApi, type RunningApi } from './support/standalone-api';

// The fuzzer's core on a short run, so `npm test` covers it; `npm run fuzz:api` runs it long.
describe('API fuzzer (200 generated requests)', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startStandaloneApi(FUZZ_ENV);
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('answers every generated request with a typed error or a valid result, and a refusal appends nothing', async () => {
    const report = await runFuzz(api, { requests: 200, seed: 20_260_101, timeLimitMs: 90_000 });
    expect(report.failures).toEqual([]);
    expect({
      requests: report.requests,
      server_errors: report.server_errors,
      stack_traces: report.stack_traces,
      untyped_errors: report.untyped_errors,
      appended_on_refusal: report.appended_on_refusal,
    }).toEqual({ requests: 200, server_errors: 0, stack_traces: 0, untyped_errors: 0, appended_on_refusal: 0 });
    // The generator reaches both sides: refusals of several kinds, and results that ran.
    expect(report.typed_errors).toBeGreaterThan(0);
    expect(report.valid_results).toBeGreaterThan(0);
    expect(Object.keys(report.codes).length).toBeGreaterThanOrEqual(4);
    expect(fuzzFailed(report)).toBe(false);
  }, 150_000);
});
