import { createServer } from 'node:net';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { waitFor } from '@lomo/bus/testing';
import {
  SIM_EVENT_ID_HEADER,
  SIM_SIGNATURE_HEADER,
  SIM_TIMESTAMP_HEADER,
  simulatedCallbackSignature,
} from '@lomo/generation';
import { startStandaloneApi, type RunningApi } from '../api/support/standalone-api';

// `npm start` as a newcomer uses it, in a real process: the offline model orders a poster, the job
// asks for approval, the person approves a budget and the quote, the simulated upstream (its own
// child process) makes the image and calls back over real HTTP; then every bad callback input.

const secret = 'test-generation-callback-secret';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface JobView {
  id: string;
  phase: string;
  progress: number;
  artifactId: string | null;
  chargedMinor: number | null;
  quote: { quoteId: string; amountMinor: number; currency: string };
}

describe('generation through the API of a standalone process, with the sim-upstream as its own process', () => {
  let api: RunningApi;
  let upstreamUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    api = await startStandaloneApi({
      PORT: String(port),
      LOMO_GENERATION_CALLBACK_SECRET: secret,
      LOMO_GENERATION_SILENCE_MS: '2000',
      // The test polls the read models; the per-token limit is not what it checks.
      LOMO_API_RATE_LIMIT_BURST: '10000',
      LOMO_API_RATE_LIMIT_PER_SECOND: '10000',
    });
    const started = api.lines.find((l) => l.msg === 'simulated media upstream started');
    upstreamUrl = String(started?.simUpstream);
  }, 90_000);
  afterAll(async () => api?.stop());

  const counters = async () =>
    (await (await fetch(`${upstreamUrl}/control/counters`)).json()) as { submitRequests: number; distinctJobs: number };
  const eventCount = () => {
    const db = new Database(path.join(api.dataDir, 'events.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const upstreamIdOf = (jobId: string): string => {
    const db = new Database(path.join(api.dataDir, 'events.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const rows = db
        .prepare("SELECT data FROM events WHERE stream_id = ? AND type = 'GenerationSubmitted'")
        .all(`generation-${jobId}`) as Array<{ data: string }>;
      return (JSON.parse(rows[0].data) as { upstreamJobId: string }).upstreamJobId;
    } finally {
      db.close();
    }
  };

  async function posterJob(text: string): Promise<{ taskId: string; job: JobView }> {
    const sent = await api.gql<{ sendMessage: { messageId: string } }>(
      api.devToken,
      'mutation($t: String!) { sendMessage(text: $t) { messageId } }',
      { t: text },
    );
    expect(sent.errors).toBeUndefined();
    let found: { taskId: string; job: JobView } | undefined;
    await waitFor(
      async () => {
        const tasks = await api.gql<{ tasks: { edges: Array<{ node: { id: string } }> } }>(
          api.devToken,
          '{ tasks(first: 20) { edges { node { id } } } }',
        );
        for (const { node } of tasks.data?.tasks.edges ?? []) {
          const jobs = await jobsOf(node.id);
          const waiting = jobs.find((j) => j.phase === 'awaiting_approval');
          if (waiting) found = { taskId: node.id, job: waiting };
        }
        return found !== undefined;
      },
      'a job waiting for approval',
      30_000,
    );
    return found!;
  }

  async function jobsOf(taskId: string): Promise<JobView[]> {
    const res = await api.gql<{ generationJobs: JobView[] }>(
      api.devToken,
      'query($id: ID!) { generationJobs(taskId: $id) { id phase progress artifactId chargedMinor quote { quoteId amountMinor currency } } }',
      { id: taskId },
    );
    return res.data?.generationJobs ?? [];
  }

  async function approve(quoteId: string) {
    const res = await api.gql<{ approveQuote: { changed: boolean } }>(
      api.devToken,
      'mutation($q: ID!) { approveQuote(quoteId: $q) { changed } }',
      { q: quoteId },
    );
    expect(res.errors).toBeUndefined();
  }

  it('a poster request: the paid call asks first and reaches no provider; after the approvals it completes once, with its artefact and one charge', async () => {
    const { taskId, job } = await posterJob('Make a poster of a lighthouse at dawn');
    expect(job.quote).toMatchObject({ amountMinor: 4, currency: 'USD' });
    expect((await counters()).submitRequests).toBe(0);

    const budget = await api.gql<{ approveBudget: { changed: boolean } }>(
      api.devToken,
      'mutation { approveBudget(amountMinor: 100, currency: "USD", requestKey: "poster-budget") { changed } }',
    );
    expect(budget.data?.approveBudget.changed).toBe(true);
    await approve(job.quote.quoteId);
    await waitFor(async () => (await jobsOf(taskId))[0]?.phase === 'completed', 'the job completed', 30_000);

    const [done] = await jobsOf(taskId);
    expect(done).toMatchObject({ phase: 'completed', progress: 100, chargedMinor: 4 });
    expect(done.artifactId).toEqual(expect.any(String));
    expect(await counters()).toMatchObject({ submitRequests: 1, distinctJobs: 1 });
    const account = await api.gql<{ account: { currencies: Array<{ spentMinor: number; reservedMinor: number }> } }>(
      api.devToken,
      '{ account { currencies { spentMinor reservedMinor } } }',
    );
    expect(account.data?.account.currencies).toEqual([expect.objectContaining({ spentMinor: 4, reservedMinor: 0 })]);
    const media = await fetch(`${api.url}/media/${done.artifactId}`, {
      headers: { authorization: `Bearer ${api.devToken}` },
    });
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toMatch(/^image\/png/);
    expect(
      Buffer.from(await media.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    // The progress came in by callback over HTTP, not only by polling.
    const health = (await (await fetch(`${api.url}/health`)).json()) as {
      checks: { generation: { callbacks: number } };
    };
    expect(health.checks.generation.callbacks).toBeGreaterThan(0);
  }, 90_000);

  it('every bad callback gets its 4xx with a typed error and appends nothing; a replayed event id is refused', async () => {
    // A job that stays running upstream, so a well-signed progress callback of ours is for a live job.
    const control = await fetch(`${upstreamUrl}/control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: { latencyMs: 600_000, progressTicks: 0 } }),
    });
    expect(control.ok).toBe(true);
    const { taskId, job } = await posterJob('Make a poster of a red fox in the snow');
    await approve(job.quote.quoteId);
    await waitFor(async () => (await jobsOf(taskId))[0]?.phase === 'submitted', 'the job submitted', 30_000);
    const upstreamJobId = upstreamIdOf(job.id);

    const now = () => Math.floor(Date.now() / 1000);
    const bodyOf = (eventId: string, progress: number) =>
      JSON.stringify({
        eventId,
        type: 'job.progress',
        jobId: upstreamJobId,
        status: 'processing',
        progress,
        sequence: 1,
        occurredAt: new Date().toISOString(),
      });
    const signed = (eventId: string, body: string, ts = now()) => ({
      'content-type': 'application/json',
      [SIM_EVENT_ID_HEADER]: eventId,
      [SIM_TIMESTAMP_HEADER]: String(ts),
      [SIM_SIGNATURE_HEADER]: simulatedCallbackSignature(secret, eventId, ts, body),
    });
    const send = async (body: string, headers: Record<string, string>, provider = 'simulated') => {
      const res = await fetch(`${api.url}/callbacks/generation/${provider}`, { method: 'POST', headers, body });
      return { status: res.status, body: (await res.json()) as { error?: { code: string } } };
    };

    const good = bodyOf(`${upstreamJobId}.forged-1`, 40);
    const reserialized = JSON.stringify(JSON.parse(good), null, 2);
    const malformed = '{"eventId": "x", ';
    const unknownJob = JSON.stringify({ ...JSON.parse(good), jobId: 'simjob_nobody' });
    const before = eventCount();
    const check = async (what: string, sent: ReturnType<typeof send>, status: number, code: string) => {
      const { status: got, body } = await sent;
      expect({ what, status: got, code: body.error?.code }).toEqual({ what, status, code });
      expect({ what, events: eventCount() }).toEqual({ what, events: before });
    };
    await check(
      'bad signature',
      send(good, { ...signed(`${upstreamJobId}.forged-1`, good), [SIM_SIGNATURE_HEADER]: `v1=${'0'.repeat(64)}` }),
      401,
      'CALLBACK_BAD_SIGNATURE',
    );
    await check('unsigned', send(good, { 'content-type': 'application/json' }), 401, 'CALLBACK_BAD_SIGNATURE');
    await check(
      'stale timestamp',
      send(good, signed(`${upstreamJobId}.forged-1`, good, now() - 3_600)),
      401,
      'CALLBACK_STALE_TIMESTAMP',
    );
    await check(
      're-serialized body',
      send(reserialized, signed(`${upstreamJobId}.forged-1`, good)),
      401,
      'CALLBACK_BAD_SIGNATURE',
    );
    await check('malformed JSON', send(malformed, signed('x', malformed)), 400, 'CALLBACK_MALFORMED');
    await check(
      'unknown job',
      send(unknownJob, signed(`${upstreamJobId}.forged-1`, unknownJob)),
      404,
      'CALLBACK_UNKNOWN_JOB',
    );
    await check(
      'unknown provider',
      send(good, signed(`${upstreamJobId}.forged-1`, good), 'nobody'),
      404,
      'CALLBACK_UNKNOWN_PROVIDER',
    );

    // The well-signed one is taken (its progress appended), and the same event id again is a replay.
    const accepted = await send(good, signed(`${upstreamJobId}.forged-1`, good));
    expect(accepted.status).toBe(200);
    const afterAccepted = eventCount();
    expect(afterAccepted).toBe(before + 1);
    const replay = await send(good, signed(`${upstreamJobId}.forged-1`, good));
    expect({ status: replay.status, code: replay.body.error?.code }).toEqual({
      status: 409,
      code: 'CALLBACK_REPLAYED',
    });
    expect(eventCount()).toBe(afterAccepted);
    expect((await jobsOf(taskId))[0].progress).toBe(40);
  }, 90_000);

  it('approveBudget and setSpendingLimits refuse bad input with a typed error and append nothing', async () => {
    const before = eventCount();
    const badZone = await api.gql(
      api.devToken,
      'mutation { setSpendingLimits(currency: "USD", perCallAutoApproveMinor: 10, dailyAutoApproveMinor: 100, timeZone: "Mars/Olympus") { changed } }',
    );
    const badCurrency = await api.gql(
      api.devToken,
      'mutation { approveBudget(amountMinor: 10, currency: "usd", requestKey: "k") { changed } }',
    );
    const negative = await api.gql(
      api.devToken,
      'mutation { approveBudget(amountMinor: -5, currency: "USD", requestKey: "k2") { changed } }',
    );
    for (const [what, res] of [
      ['time zone', badZone],
      ['currency', badCurrency],
      ['negative amount', negative],
    ] as const) {
      const code = (res.errors?.[0]?.extensions as { code?: string } | undefined)?.code;
      expect({ what, code, data: res.data ?? null }).toEqual({
        what,
        code: expect.stringMatching(/^(BAD_USER_INPUT|VALIDATION_FAILED|ACCOUNT_INVALID_COMMAND)$/),
        data: null,
      });
    }
    expect(eventCount()).toBe(before);
  });
});
