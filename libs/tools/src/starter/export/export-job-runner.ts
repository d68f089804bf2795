import { deterministicUuid, type Actor, type Clock } from '@lomo/contracts';
import type { BlobStore } from '@lomo/blobs';
import type { EventBus } from '@lomo/bus';
import type { EventStore } from '@lomo/eventstore';
import { appendToolCompletion, publishCompletionWake } from '../../async/tool-completion';
import type { ExportJob, ExportJobStore, ExportRequest } from './export-job.port';
import { renderExport } from './render-export';
import { systemTimer, type CancelTimer, type Timer } from './timer';

export const EXPORT_RUNNER_ACTOR: Actor = { kind: 'system', component: 'export-runner' };
export const DEFAULT_EXPORT_DURATION_MS = 2_000;

export const exportJobIdFor = (workspaceId: string, idempotencyKey: string): string =>
  deterministicUuid('lomo.export-job', workspaceId, idempotencyKey);

/** Fault-injection points for crash tests; absent in production. */
export interface ExportRunnerHooks {
  /** After the completion is on the turn stream, before the wake-up and before the job is marked done. */
  afterCompletionAppended?: (job: ExportJob) => Promise<void> | void;
}

export interface ExportJobRunnerOptions {
  jobs: ExportJobStore;
  events: EventStore;
  blobs: Pick<BlobStore, 'put'>;
  bus: Pick<EventBus, 'publish'>;
  clock: Clock;
  timer?: Timer;
  /** The simulated time an export takes. */
  durationMs?: number;
  retryDelayMs?: number;
  /** Failed attempts before the call completes with EXPORT_FAILED. */
  maxAttempts?: number;
  /** Failures that are retried or left to the watchdog still deserve a log line. */
  onError?: (error: unknown, jobId: string) => void;
  hooks?: ExportRunnerHooks;
}

/**
 * Finishes export jobs: after the simulated duration it stores the document as a blob, appends
 * `ToolCallCompleted` to the call's turn stream and publishes a wake-up. Jobs are durable, and
 * every step is idempotent (content-addressed blob, deterministic event id), so a runner that
 * restarts, or two that race, finish a job with exactly one completion event.
 */
export class ExportJobRunner {
  private state: 'idle' | 'running' | 'stopped' = 'idle';
  private readonly timers = new Map<string, CancelTimer>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly timer: Timer;
  private readonly durationMs: number;
  private readonly retryDelayMs: number;
  private readonly maxAttempts: number;

  constructor(private readonly options: ExportJobRunnerOptions) {
    this.timer = options.timer ?? systemTimer;
    this.durationMs = options.durationMs ?? DEFAULT_EXPORT_DURATION_MS;
    this.retryDelayMs = options.retryDelayMs ?? 1_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  }

  /** Records the job (once per idempotency key) and, when running, schedules it. */
  async submit(request: ExportRequest): Promise<ExportJob> {
    const now = this.options.clock.now();
    const { job } = await this.options.jobs.insertIfAbsent({
      ...request,
      jobId: exportJobIdFor(request.workspaceId, request.idempotencyKey),
      status: 'pending',
      createdAt: now.toISOString(),
      dueAtMs: now.getTime() + this.durationMs,
      attempts: 0,
    });
    if (job.status === 'pending') this.schedule(job.jobId, job.dueAtMs - now.getTime());
    return job;
  }

  /** Resumes every pending job (those a crashed or stopped runner left); returns how many. */
  async start(): Promise<number> {
    if (this.state === 'stopped') return 0;
    this.state = 'running';
    const pending = await this.options.jobs.pending();
    const now = this.options.clock.now().getTime();
    for (const job of pending) this.schedule(job.jobId, job.dueAtMs - now);
    return pending.length;
  }

  /** Cancels what is scheduled and waits for the work in flight; pending jobs resume at the next start. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    await this.idle();
  }

  /** Resolves once no job is being finished (tests wait on it after moving time). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  private schedule(jobId: string, delayMs: number): void {
    // In-flight work may schedule its own retry, so only a second timer is refused here.
    if (this.state !== 'running' || this.timers.has(jobId)) return;
    const cancel = this.timer.schedule(Math.max(0, delayMs), () => {
      this.timers.delete(jobId);
      this.launch(jobId);
    });
    this.timers.set(jobId, cancel);
  }

  private launch(jobId: string): void {
    if (this.state !== 'running' || this.inFlight.has(jobId)) return;
    const work = this.finish(jobId)
      .catch((error: unknown) => {
        // The job store or the event store is unreachable: try the whole (idempotent) job again later.
        this.report(error, jobId);
        this.schedule(jobId, this.retryDelayMs);
      })
      .finally(() => this.inFlight.delete(jobId));
    this.inFlight.set(jobId, work);
  }

  private async finish(jobId: string): Promise<void> {
    const job = await this.options.jobs.get(jobId);
    if (!job || job.status !== 'pending') return;
    try {
      const rendered = renderExport(job);
      const blob = await this.options.blobs.put(rendered.content, rendered.contentType);
      await appendToolCompletion(
        this.options.events,
        job,
        { status: 'ok', result: { blobHash: blob.hash, bytes: blob.bytes } },
        EXPORT_RUNNER_ACTOR,
      );
    } catch (error) {
      await this.failedAttempt(error, job);
      return;
    }
    await this.options.hooks?.afterCompletionAppended?.(job);
    await this.conclude(job, 'completed');
  }

  private async failedAttempt(error: unknown, job: ExportJob): Promise<void> {
    this.report(error, job.jobId);
    const attempts = await this.options.jobs.recordFailure(job.jobId);
    if (attempts < this.maxAttempts) {
      this.schedule(job.jobId, this.retryDelayMs);
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    await appendToolCompletion(
      this.options.events,
      job,
      {
        status: 'error',
        error: {
          code: 'EXPORT_FAILED',
          message: `The export failed after ${attempts} attempts: ${reason}`.slice(0, 4_000),
          // Another call (a new idempotency key) may well succeed.
          retriable: true,
        },
      },
      EXPORT_RUNNER_ACTOR,
    );
    await this.conclude(job, 'failed');
  }

  /** The completion is durable by now: a lost wake-up is found by the watchdog, so it is only reported. */
  private async conclude(job: ExportJob, status: 'completed' | 'failed'): Promise<void> {
    try {
      await publishCompletionWake(this.options.bus, job);
    } catch (error) {
      this.report(error, job.jobId);
    }
    // If this fails the job stays pending and the next start repeats the idempotent completion.
    await this.options.jobs.markFinished(job.jobId, status, this.options.clock.now());
  }

  private report(error: unknown, jobId: string): void {
    this.options.onError?.(error, jobId);
  }
}
