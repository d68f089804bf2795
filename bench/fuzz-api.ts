/**
 * `npm run fuzz:api [-- --requests N] [--seed S] [--seconds T]`: a property-based fuzzer of the
 * GraphQL API (test/integration/api/support/api-fuzzer.ts) against a standalone process it starts
 * on a random port with its own temporary data directory. Prints figures, ends with one JSON
 * line, and exits 1 when a response was a server error, untyped, or carried a stack trace, or
 * when a refused request appended an event.
 */
import { FUZZ_ENV, fuzzFailed, runFuzz } from '../test/integration/api/support/api-fuzzer';
import { startStandaloneApi } from '../test/integration/api/support/standalone-api';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} takes a whole number, not ${process.argv[i + 1]}`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const requests = flag('requests', 2_000);
  const seed = flag('seed', Date.now() % 2 ** 31);
  const seconds = flag('seconds', 900);
  const api = await startStandaloneApi(FUZZ_ENV);
  let failed = true;
  try {
    console.log(`fuzzing ${api.url} with ${requests} requests (seed ${seed}, at most ${seconds} s)`);
    const report = await runFuzz(api, {
      requests,
      seed,
      timeLimitMs: seconds * 1_000,
      log: (line) => console.log(line),
    });
    const { codes, failures, ...figures } = report;
    console.log(`codes: ${JSON.stringify(codes)}`);
    for (const f of failures) console.log(`failure: ${JSON.stringify(f)}`);
    console.log(`figures: ${JSON.stringify(figures)}`);
    failed = fuzzFailed(report);
    console.log(
      JSON.stringify({
        requests: report.requests,
        typed_errors: report.typed_errors,
        server_errors: report.server_errors,
        stack_traces: report.stack_traces,
        appended_on_refusal: report.appended_on_refusal,
        untyped_errors: report.untyped_errors,
        valid_results: report.valid_results,
      }),
    );
  } finally {
    await api.stop();
  }
  process.exit(failed ? 1 : 0);
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
