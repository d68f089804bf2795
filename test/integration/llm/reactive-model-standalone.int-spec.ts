import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { startStandaloneApi, type RunningApi } from '../api/support/standalone-api';
import { POLLING_ENV, posterTwice } from './support/poster-twice';

// The built standalone app (`node dist/apps/standalone/main.js`) with LOMO_MODEL_PROVIDER=reactive
// on a fresh data directory: a person asks for a poster, approves the budget and the quote, and
// the reactive test policy's order completes with its artefact. Asked for the same poster again,
// it names the delivered one instead of ordering a second (rule 5; the offline policy, checked
// by hand with LOMO_MODEL_PROVIDER=offline, orders again and this test times out).

const root = path.resolve(__dirname, '../../..');

describe('the reactive model in the built standalone app', () => {
  let api: RunningApi;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.cjs'], { cwd: root, stdio: 'ignore' });
    api = await startStandaloneApi(
      { LOMO_MODEL_PROVIDER: 'reactive', ...POLLING_ENV },
      { entry: 'dist/apps/standalone/main.js' },
    );
  }, 90_000);
  afterAll(async () => api?.stop());

  it('completes a poster request end to end, and reuses the delivered poster when asked again', async () => {
    const { first, orders, second } = await posterTwice(api);
    expect(first).toEqual([expect.objectContaining({ phase: 'completed', artifactId: expect.any(String) })]);
    // The prompt the policy wrote is the request from its verb on, and nothing else: a new
    // workspace remembers no preference.
    expect(orders).toContain('"prompt":"a poster of a lighthouse at dawn"');
    expect(second).toHaveLength(1);
  }, 180_000);
});
