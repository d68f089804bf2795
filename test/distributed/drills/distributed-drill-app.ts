import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SqliteEventStore } from '@lomo/eventstore';
import { startSimUpstreamProcess, type SimUpstreamProcess } from '@lomo/generation/testing';
import {
  buildOnce,
  freePort,
  REPO_ROOT,
  runNode,
  sleep,
  type DrillTarget,
  type ProcessExit,
} from '../../drills/harness/drill-app';
import { Cluster, type AppName, type AppProcess } from '../multi-process/cluster';
import { resetLomoTopics } from '../multi-process/lomo-topics';

const CLI = path.join(REPO_ROOT, 'dist/apps/cli/main.js');

export const KAFKA_BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
export const MONGODB_URL = process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017/';

/** The apps of the deployment besides the relay (started first) and the API (the drill's URL). */
const WORKERS: AppName[] = ['router', 'projector', 'notifier', 'executor', 'generation'];

export interface DistributedDrillAppOptions {
  /** The drill's app environment (model, scenario, faults), on top of the deployment's settings. */
  env?: Record<string, string>;
  startTimeoutMs?: number;
}

/** A start of the generation app and what it said it resumed (`generation service started`). */
export interface GenerationStart {
  pid: number | undefined;
  /** Jobs its sweep took up at start (unfinished jobs of a killed predecessor). */
  resumedJobs: number | null;
}

/** One SIGKILL of the generation app, with what the upstream had answered by then. */
export interface GenerationKill {
  pid: number | undefined;
  /** Polls the upstream answered in all, and since the kill was asked for (the job submitted). */
  pollsAtKill: number;
  polledSinceSubmitted: number;
  /** Result downloads: a job is downloaded when it completes, so 0 means no job had finished. */
  downloadsAtKill: number;
}

/**
 * The distributed deployment as one drill target (DrillTarget, test/drills/harness/drill-app.ts):
 * the built apps of dist/ (relay, router, projector, notifier, executor, generation, api), each
 * its own OS process with LOMO_MODE=distributed on one shared configuration, and the simulated
 * media upstream (apps/sim-upstream) as a process of its own, as distributed mode requires.
 *
 * One host's deployment, like test/distributed/multi-process/drill.ts:
 * - events: the SQLite event store `<dataDir>/events.sqlite`, shared by every process (the relay
 *   publishes it to Kafka); the metrics read it after `stop()`, as on the standalone app;
 * - the bus: Kafka at KAFKA_BROKERS; the apps' `lomo.*` topics have fixed names, so the first
 *   start deletes and recreates them (resetLomoTopics): one distributed drill per broker at a time;
 * - documents (read models, API tokens, the search index): FerretDB/MongoDB at MONGODB_URL, in a
 *   database of the drill's own;
 * - blobs (artefacts, archived prompts) and tool state on the data directory's disk
 *   (LOMO_BLOB_STORE=filesystem, LOMO_TOOLS_STORE=sqlite), so the prompt archive is read as the
 *   standalone drill reads it;
 * - the simulated upstream's state in `<dataDir>/sim-upstream/state.json` (the fault evidence).
 *
 * `url` is the API app's (GraphQL, subscriptions, /test-control). Its port, and the generation
 * app's (the upstream calls back on it), are fixed free ports kept across restarts.
 */
export class DistributedDrillApp implements DrillTarget {
  readonly dataDir = mkdtempSync(path.join(tmpdir(), 'lomo-distdrill-'));
  readonly database = `distdrill_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  readonly env: Record<string, string>;
  readonly callbackSecret = randomBytes(24).toString('base64url');
  cluster: Cluster | undefined;
  upstream: SimUpstreamProcess | undefined;
  url = '';
  starts = 0;
  /** The simulated upstream's counters when the deployment last stopped (jobs, callbacks, polls). */
  upstreamCounters: Record<string, number> | undefined;
  /** The generation app's SIGKILLs by `restartGeneration`, with the upstream's counters at the kill. */
  readonly generationKills: GenerationKill[] = [];
  /** Every start of the generation app, the first one included. */
  readonly generationStarts: GenerationStart[] = [];
  private api: AppProcess | undefined;
  private generation: AppProcess | undefined;
  private readonly history: AppProcess[] = [];
  private topicsReset = false;
  private apiPort = '';
  private generationPort = '';

  constructor(private readonly options: DistributedDrillAppOptions = {}) {
    this.env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      LOMO_MODE: 'distributed',
      LOMO_BUS: 'kafka',
      KAFKA_BROKERS: KAFKA_BROKERS.join(','),
      // A killed member holds its partitions until its session times out.
      KAFKA_SESSION_TIMEOUT_MS: '10000',
      KAFKA_HEARTBEAT_INTERVAL_MS: '1000',
      LOMO_EVENTSTORE: 'sqlite',
      LOMO_DATA_DIR: this.dataDir,
      MONGODB_URL,
      MONGODB_DATABASE: this.database,
      LOMO_TOOLS_STORE: 'sqlite',
      LOMO_BLOB_STORE: 'filesystem',
      LOMO_RELAY: 'off',
      PORT: '0',
      LOMO_PROJECTOR_SWEEP_MS: '1000',
      LOMO_MODEL_PROVIDER: 'offline',
      // The same drill switches as the standalone drill's (DrillApp): test control on, and the
      // person's bursts of reads are not the rate limit's business.
      LOMO_TEST_CONTROL: 'on',
      LOMO_API_RATE_LIMIT_BURST: '10000',
      LOMO_API_RATE_LIMIT_PER_SECOND: '1000',
      LOMO_GENERATION_CALLBACK_SECRET: this.callbackSecret,
      ...options.env,
    };
  }

  get running(): boolean {
    return this.api?.running === true;
  }

  get lines(): Record<string, unknown>[] {
    return this.api?.lines ?? [];
  }

  /** The apps' processes, every start of each (diagnostics, the generation restarts). */
  get processes(): readonly AppProcess[] {
    return [...this.history, ...(this.cluster?.history ?? [])];
  }

  async start(): Promise<void> {
    if (this.running) throw new Error('the distributed drill apps are running already');
    await buildOnce();
    const timeout = this.options.startTimeoutMs ?? 120_000;
    if (!this.topicsReset) {
      await resetLomoTopics(KAFKA_BROKERS);
      // The store file and its schema exist before several processes race to create them.
      const store = new SqliteEventStore({ filename: path.join(this.dataDir, 'events.sqlite') });
      await store.headPosition();
      await store.close();
      this.topicsReset = true;
    }
    if (this.apiPort === '') {
      this.apiPort = String(await freePort());
      this.generationPort = String(await freePort());
    }
    await this.startUpstream();
    if (this.cluster !== undefined) this.history.push(...this.cluster.history);
    this.cluster = new Cluster({ ...this.env, LOMO_SIM_UPSTREAM_URL: this.upstream!.url }, { built: true });
    await this.cluster.start(
      'relay',
      'relay',
      { LOMO_RELAY: 'on', LOMO_WORKER_ID: `relay-${this.starts + 1}` },
      timeout,
    );
    const workers = WORKERS.map((app) =>
      app === 'generation'
        ? this.startGeneration(timeout)
        : this.cluster!.start(app, app, app === 'executor' ? { LOMO_WORKER_ID: 'executor-1' } : {}, timeout),
    );
    const [api] = await Promise.all([this.cluster.start('api', 'api', { PORT: this.apiPort }, timeout), ...workers]);
    this.api = api;
    this.url = api.url!;
    this.starts += 1;
  }

  /** apps/sim-upstream on the data directory, its callback faults on from its first instant (as the standalone child's). */
  private async startUpstream(): Promise<void> {
    if (this.upstream !== undefined && this.upstream.child.exitCode === null && this.upstream.child.signalCode === null)
      return;
    const dir = path.join(this.dataDir, 'sim-upstream');
    mkdirSync(dir, { recursive: true });
    const faults = (this.env.LOMO_TEST_FAULTS ?? '').split(',');
    this.upstream = await startSimUpstreamProcess({
      useDist: true,
      ...(this.upstream !== undefined ? { port: this.upstream.port } : {}),
      stateFile: path.join(dir, 'state.json'),
      start: {
        config: { callbackSecret: this.callbackSecret },
        faults: {
          duplicateCallbacks: faults.includes('duplicate_callbacks'),
          lostCallbacks: faults.includes('lost_callbacks'),
        },
      },
    });
  }

  private async startGeneration(timeoutMs = 120_000): Promise<AppProcess> {
    const generation = await this.cluster!.start('generation', 'generation', { PORT: this.generationPort }, timeoutMs);
    this.generation = generation;
    const start: GenerationStart = { pid: generation.pid, resumedJobs: null };
    this.generationStarts.push(start);
    void generation
      .waitForLog((l) => l.msg === 'generation service started', 'the generation service', timeoutMs)
      .then((l) => (start.resumedJobs = typeof l.resumedJobs === 'number' ? l.resumedJobs : null))
      .catch(() => undefined);
    return generation;
  }

  /**
   * SIGKILL the generation app alone and start it again; the rest keeps running. Mid-poll: the
   * kill waits (at most `pollWaitMs`) until the upstream has answered a poll since the call, so the
   * killed process was following a submitted job by polling; what the upstream had seen at the
   * kill (polls, result downloads: none while the job is unfinished) is kept in `generationKills`.
   */
  async restartGeneration(pollWaitMs = 10_000): Promise<void> {
    const generation = this.generation;
    const upstream = this.upstream;
    if (generation === undefined || upstream === undefined) throw new Error('the generation app is not running');
    const before = await upstream.counters();
    const deadline = Date.now() + pollWaitMs;
    let atKill = before;
    while (atKill.pollRequests <= before.pollRequests && Date.now() < deadline) {
      await sleep(50);
      atKill = await upstream.counters();
    }
    generation.signal('SIGKILL');
    await generation.exited;
    this.generationKills.push({
      pid: generation.pid,
      pollsAtKill: atKill.pollRequests,
      polledSinceSubmitted: atKill.pollRequests - before.pollRequests,
      downloadsAtKill: atKill.downloadRequests,
    });
    await this.startGeneration();
  }

  /** SIGKILL every app (the upstream, another party, keeps running); the API's exit. */
  async kill(): Promise<ProcessExit> {
    const running = (this.cluster?.history ?? []).filter((p) => p.running);
    for (const p of running) p.signal('SIGKILL');
    await Promise.all(running.map((p) => p.exited));
    return this.api !== undefined ? this.api.exited : { code: null, signal: null };
  }

  /** SIGTERM every app (SIGKILL after 15 s), then the upstream (its counters flushed to its state file). */
  async stop(): Promise<void> {
    await this.cluster?.stopAll(15_000);
    if (
      this.upstream !== undefined &&
      this.upstream.child.exitCode === null &&
      this.upstream.child.signalCode === null
    ) {
      this.upstreamCounters = await this.upstream.counters().catch(() => this.upstreamCounters);
      await this.upstream.stop('SIGTERM');
    }
  }

  async restart(how: 'kill' | 'stop' | 'crashed' = 'kill'): Promise<ProcessExit> {
    // The crash points fire in the process that records the order (the executor here), and the
    // api's /test-control arms only its own process: not supported on the distributed apps.
    if (how === 'crashed') throw new Error('restart: crashed is not supported on the distributed apps');
    let exit: ProcessExit = { code: null, signal: null };
    if (how === 'kill') exit = await this.kill();
    else await this.cluster?.stopAll(15_000);
    await this.start();
    return exit;
  }

  /** A new API token via the built CLI, on the deployment's token store (FerretDB). */
  async createToken(workspace: string, user: string, kind: 'person' | 'operator'): Promise<string> {
    const env = this.env;
    const run = await runNode(
      [
        CLI,
        '--json',
        'tokens',
        'create',
        '--workspace',
        workspace,
        '--user',
        user,
        '--name',
        `drill-${user}`,
        '--kind',
        kind,
      ],
      env,
    );
    if (run.code !== 0) throw new Error(`lomo tokens create (${kind}) failed: ${run.stderr}`);
    return (JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as { token: string }).token;
  }

  async dispose(keepDataDir = false): Promise<void> {
    await this.stop();
    if (!keepDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Every process's last error lines and stderr, for a failure message. */
  diagnostics(): string {
    return this.cluster?.diagnostics() ?? '';
  }
}
