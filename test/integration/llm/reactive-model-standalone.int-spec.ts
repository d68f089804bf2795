import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { waitFor } from '@lomo/bus/testing';
import { SEND_MESSAGE, taskOfMessage } from '../api/support/queries';
import { startStandaloneApi, type RunningApi } from '../api/support/standalone-api';

// The built standalone app (`node dist/apps/standalone/main.js`) with LOMO_MODEL_PROVIDER=reactive
// on a fresh data directory: a person asks for a poster, approves the budget and the quote, and
// the reactive test policy's order completes with its artefact. Asked for the same poster again,
// it names the delivered one instead of ordering a second (the offline policy, checked by hand
// with LOMO_MODEL_PROVIDER=offline, orders again and this test times out).

const root = path.resolve(__dirname, '../../..');
const POSTER = 'Make a poster of a lighthouse at dawn';

interface JobView {
  id: string;
  phase: string;
  artifactId: string | null;
  quote: { quoteId: string };
}

describe('the reactive model in the built standalone app', () => {
  let api: RunningApi;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.cjs'], { cwd: root, stdio: 'ignore' });
    api = await startStandaloneApi(
      {
        LOMO_MODEL_PROVIDER: 'reactive',
        LOMO_API_RATE_LIMIT_BURST: '10000',
        LOMO_API_RATE_LIMIT_PER_SECOND: '10000',
      },
      { entry: 'dist/apps/standalone/main.js' },
    );
  }, 90_000);
  afterAll(async () => api?.stop());

  const jobsOf = async (taskId: string): Promise<JobView[]> => {
    const res = await api.gql<{ generationJobs: JobView[] }>(
      api.devToken,
      'query($id: ID!) { generationJobs(taskId: $id) { id phase artifactId quote { quoteId } } }',
      { id: taskId },
    );
    return res.data?.generationJobs ?? [];
  };

  const eventsOfType = (type: string): string[] => {
    const db = new Database(path.join(api.dataDir, 'events.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare('SELECT data FROM events WHERE type = ?').all(type) as Array<{ data: string }>;
      return rows.map((r) => r.data);
    } finally {
      db.close();
    }
  };

  it('completes a poster request end to end: ordered, approved, made, named', async () => {
    const sent = await api.gql<{ sendMessage: { messageId: string } }>(
      api.devToken,
      'mutation($t: String!) { sendMessage(text: $t) { messageId } }',
      { t: POSTER },
    );
    expect(sent.errors).toBeUndefined();
    const taskId = await taskOfMessage(api, api.devToken, sent.data!.sendMessage.messageId);
    let job: JobView | undefined;
    await waitFor(
      async () => {
        job = (await jobsOf(taskId)).find((j) => j.phase === 'awaiting_approval');
        return job !== undefined;
      },
      'the poster job waiting for approval',
      60_000,
    );
    const budget = await api.gql<{ approveBudget: { changed: boolean } }>(
      api.devToken,
      'mutation { approveBudget(amountMinor: 100, currency: "USD", requestKey: "reactive-poster") { changed } }',
    );
    expect(budget.errors).toBeUndefined();
    const approved = await api.gql(api.devToken, 'mutation($q: ID!) { approveQuote(quoteId: $q) { changed } }', {
      q: job!.quote.quoteId,
    });
    expect(approved.errors).toBeUndefined();
    await waitFor(async () => (await jobsOf(taskId))[0]?.phase === 'completed', 'the job completed', 60_000);

    const jobs = await jobsOf(taskId);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].artifactId).toEqual(expect.any(String));
    // The prompt the reactive policy wrote is the person's request from its verb on, and nothing
    // else: a new workspace remembers no preference.
    const orders = eventsOfType('GenerationRequested').join('\n');
    expect(orders).toContain('"prompt":"a poster of a lighthouse at dawn"');
    const artifactId = String(jobs[0].artifactId);

    // The same request again, in the same task: the prompt shows the delivery (the call and its
    // result naming the artefact), so the reactive policy names it and orders nothing (rule 5;
    // the offline policy would order it again).
    const naming = () => eventsOfType('ModelStepCommitted').filter((d) => d.includes(artifactId)).length;
    const before = naming();
    const again = await api.gql(api.devToken, SEND_MESSAGE, { text: POSTER, taskId });
    expect(again.errors).toBeUndefined();
    await waitFor(() => naming() > before, 'a reply naming the delivered poster', 60_000);
    expect(await jobsOf(taskId)).toHaveLength(1);
  }, 180_000);
});
