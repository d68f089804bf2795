import * as path from 'node:path';
import Database from 'better-sqlite3';
import { waitFor } from '@lomo/bus/testing';
import { SEND_MESSAGE, taskOfMessage } from '../../api/support/queries';
import type { RunningApi } from '../../api/support/standalone-api';

export const POSTER = 'Make a poster of a lighthouse at dawn';

/** The environment both reactive standalone tests add: the test polls, the per-client limits are not what it checks. */
export const POLLING_ENV = {
  LOMO_API_RATE_LIMIT_BURST: '10000',
  LOMO_API_RATE_LIMIT_PER_SECOND: '10000',
  LOMO_API_IP_RATE_LIMIT_BURST: '100000',
  LOMO_API_IP_RATE_LIMIT_PER_SECOND: '10000',
};

interface JobView {
  id: string;
  phase: string;
  artifactId: string | null;
  quote: { quoteId: string };
}

export interface PosterTwice {
  /** The generation jobs of the task after the first request completed. */
  first: JobView[];
  /** The generation orders the event log holds after it (their data, JSON). */
  orders: string;
  /** The jobs once the agent answered the same request again. */
  second: JobView[];
}

/**
 * A person asks for a poster, approves the budget and the quote, and the job completes; then
 * asks for the same poster again in the same task, and the agent answers (a step whose reply
 * names the delivered artefact). Read from the API and the event log only.
 */
export async function posterTwice(api: RunningApi): Promise<PosterTwice> {
  const token = api.devToken;
  const jobsOf = async (taskId: string): Promise<JobView[]> => {
    const res = await api.gql<{ generationJobs: JobView[] }>(
      token,
      'query($id: ID!) { generationJobs(taskId: $id) { id phase artifactId quote { quoteId } } }',
      { id: taskId },
    );
    return res.data?.generationJobs ?? [];
  };
  const eventsOfType = (type: string): string[] => {
    const db = new Database(path.join(api.dataDir, 'events.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT data FROM events WHERE type = ?').all(type) as Array<{ data: string }>).map(
        (r) => r.data,
      );
    } finally {
      db.close();
    }
  };
  const mutate = async (query: string, variables?: Record<string, unknown>) => {
    const res = await api.gql(token, query, variables);
    if (res.errors !== undefined) throw new Error(`${query}: ${JSON.stringify(res.errors)}`);
  };

  const sent = await api.gql<{ sendMessage: { messageId: string } }>(token, SEND_MESSAGE, { text: POSTER });
  if (!sent.data) throw new Error(`sendMessage failed: ${JSON.stringify(sent.errors)}`);
  const taskId = await taskOfMessage(api, token, sent.data.sendMessage.messageId);
  let waiting: JobView | undefined;
  await waitFor(
    async () => {
      waiting = (await jobsOf(taskId)).find((j) => j.phase === 'awaiting_approval');
      return waiting !== undefined;
    },
    'the poster job waiting for approval',
    60_000,
  );
  await mutate(
    'mutation { approveBudget(amountMinor: 100, currency: "USD", requestKey: "reactive-poster") { changed } }',
  );
  await mutate('mutation($q: ID!) { approveQuote(quoteId: $q) { changed } }', { q: waiting!.quote.quoteId });
  await waitFor(async () => (await jobsOf(taskId))[0]?.phase === 'completed', 'the job completed', 60_000);
  const first = await jobsOf(taskId);
  const orders = eventsOfType('GenerationRequested').join('\n');

  const artifactId = String(first[0]?.artifactId);
  const naming = () => eventsOfType('ModelStepCommitted').filter((d) => d.includes(artifactId)).length;
  const before = naming();
  await mutate(SEND_MESSAGE, { text: POSTER, taskId });
  await waitFor(() => naming() > before, 'a reply naming the delivered poster', 60_000);
  return { first, orders, second: await jobsOf(taskId) };
}
