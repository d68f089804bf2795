import type { BlobStore } from '@lomo/blobs';
import { AggregateStream, handleCommand } from '@lomo/command-handling';
import {
  deterministicUuid,
  isLomoError,
  streams,
  type Clock,
  type IdGenerator,
  type TestControl,
  type WriteMetadata,
} from '@lomo/contracts';
import {
  DomainError,
  planBudgetIdForCard,
  taskDecider,
  taskEventTypes,
  turnDecider,
  turnEventTypes,
  type PlanBudget,
  type TaskCommand,
  type TaskEvent,
  type TaskState,
} from '@lomo/domain';
import type { EventBus } from '@lomo/bus';
import type { EventStore } from '@lomo/eventstore';
import type { DocumentStore } from '@lomo/read-models';
import { backoffDelay } from '@lomo/resilience';
import {
  appendToolCompletion,
  publishCompletionWake,
  systemTimer,
  type CancelTimer,
  type CompletionOutcome,
  type Timer,
} from '@lomo/tools';
import type { ArtifactCommands } from '@lomo/workspace';
import type { AccountCommand, PaymentMode } from '../account/account-commands';
import { PaymentNotAuthorizedError, PaymentRefusals } from '../account/account-errors';
import type { SettlementStep } from '../account/settle-job';
import type { GenerationJobCommand } from '../job/job-commands';
import type { GenerationFailureReason } from '../job/job-events';
import { generationArtifactId, generationJobId } from '../job/job-ids';
import { shouldPersistProgress } from '../job/job-progress';
import type { ExistingJob, SubmittedJob } from '../job/job-state';
import {
  CallbackRejectedError,
  GenerationOutcomeUnknownError,
  GenerationProviderError,
  GenerationRateLimitedError,
  GenerationUnavailableError,
  ResultDownloadError,
} from '../provider/generation-errors';
import type {
  GenerationProvider,
  GenerationParams,
  MediaKind,
  UpstreamResult,
} from '../provider/generation-provider.port';
import { GENERATION_ACTOR, GenerationOrders, metaOf, type AccountStreams, type JobStreams } from './generation-orders';
import type {
  GenerationJobView,
  GenerationRequestInput,
  GenerationRequests,
  PlanWork,
} from './generation-requests.port';
import { DEFAULT_GENERATION_TIMINGS, type GenerationTimings } from './generation-timings';
import { planJob, type JobPlan } from './plan-job';
import { orderHash, paymentAuthority, type CardDecision, type PaymentAuthority } from './payment-authority';
import { DecidedStreams } from './decided-streams';
import { planWake } from './plan-wake';
import { CallbackLedger } from './callback-ledger';
import { UpstreamIndex } from './upstream-index';

/** The same derivation as the runtime's (libs/runtime/src/process/derived-ids.ts), so one call has one checkpoint. */
export const approvalCheckpointIdFor = (callId: string) => deterministicUuid('lomo.runtime.checkpoint', callId);

/** Fault points for crash tests; absent in production. A hook that throws stops the work there. */
export interface GenerationHooks {
  /** The upstream accepted the job; its id is not recorded yet (the crash window of DESIGN.md §4 step 5). */
  afterUpstreamAccepted?: (jobId: string, upstreamJobId: string) => Promise<void> | void;
  /** Before each settlement write (the fault point between the job stream's and the account stream's appends). */
  beforeSettlementStep?: (jobId: string, step: SettlementStep) => Promise<void> | void;
  /** The person's approval of the call's card is on the task; its quote is not approved yet (nothing ran). */
  beforeApplyingCardApproval?: (jobId: string) => Promise<void> | void;
}

export interface GenerationCounters {
  submits: number;
  progressAppended: number;
  progressCoalesced: number;
  callbacks: number;
  completions: number;
  failures: number;
  wakes: number;
  oneShotsCompleted: number;
  settledWithoutWake: number;
  charges: number;
  approvalsAsked: number;
}

export interface GenerationServiceDeps {
  store: EventStore;
  documents: DocumentStore;
  blobs: Pick<BlobStore, 'put' | 'get'>;
  artifacts: Pick<ArtifactCommands, 'create'>;
  bus: Pick<EventBus, 'publish'>;
  providers: readonly GenerationProvider[];
  /** Which provider makes each kind; default: the first provider. */
  providerFor?: (kind: MediaKind) => string;
  /** Latest bytes of reference artefacts (image.edit, image to video); absent = references ignored. */
  references?: (
    workspaceId: string,
    artifactIds: readonly string[],
  ) => Promise<Array<{ contentType: string; bytes: Buffer }>>;
  /** Jobs left unfinished (the generation read model's `activeJobs`), resumed on start and swept. */
  activeJobs?: () => Promise<string[]>;
  clock: Clock;
  ids: IdGenerator;
  timer?: Timer;
  timings?: Partial<GenerationTimings>;
  random?: () => number;
  hooks?: GenerationHooks;
  onError?: (error: unknown, context: Record<string, unknown>) => void;
  /** Drills' mutation switches (libs/platform/src/test-control/README.md); absent: every safeguard on. */
  testControl?: Pick<TestControl, 'mutation'>;
}

/** A verified callback or a poll, as the job sees it. */
interface UpstreamReport {
  status: 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
  progress: number;
  source: 'callback' | 'poll';
  callbackEventId?: string;
  result?: UpstreamResult;
  failure?: { code: string; message: string };
}

/**
 * The generation process (DESIGN.md §4 step 5): a thin runner of ./plan-job.ts. Media tools order
 * a job (`request`: the job stream's first event, then its quote); `advance` executes the plan
 * until it waits: reserve the money (or ask the person and wait), record the intent to send and
 * send once, record the upstream id, follow progress by callback (`receiveCallback`) and by
 * polling, and on the end store the result, make the artefact, complete the tool call, settle
 * the money and decide the wake. Every step is idempotent, so a restarted or a second process
 * repeating any of it changes nothing; jobs of one process are serialized per job.
 */
export class GenerationService implements GenerationRequests {
  readonly counters: GenerationCounters = {
    submits: 0,
    progressAppended: 0,
    progressCoalesced: 0,
    callbacks: 0,
    completions: 0,
    failures: 0,
    wakes: 0,
    oneShotsCompleted: 0,
    settledWithoutWake: 0,
    charges: 0,
    approvalsAsked: 0,
  };
  readonly timings: GenerationTimings;
  readonly upstreamIndex: UpstreamIndex;
  readonly callbackLedger: CallbackLedger;
  readonly orders: GenerationOrders;
  private readonly jobs: JobStreams;
  private readonly accounts: AccountStreams;
  /** Tasks are read (never written through this cache) for what they say about paying for a call. */
  private readonly tasks: DecidedStreams<TaskCommand, TaskEvent, TaskState>;
  private readonly providers = new Map<string, GenerationProvider>();
  private readonly timer: Timer;
  private readonly timers = new Map<string, { atMs: number; cancel: CancelTimer }>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly submitting = new Set<string>();
  private readonly lastPolled = new Map<string, number>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private state: 'idle' | 'running' | 'stopped' = 'idle';
  private sweepCancel: CancelTimer | undefined;
  private flushCancel: CancelTimer | undefined;

  constructor(private readonly deps: GenerationServiceDeps) {
    if (deps.providers.length === 0) throw new Error('The generation service needs at least one provider');
    for (const provider of deps.providers) this.providers.set(provider.name, provider);
    this.timings = { ...DEFAULT_GENERATION_TIMINGS, ...deps.timings };
    this.timer = deps.timer ?? systemTimer;
    this.orders = new GenerationOrders(deps);
    this.jobs = this.orders.jobs;
    this.accounts = this.orders.accounts;
    this.tasks = new DecidedStreams(deps.store, taskDecider, taskEventTypes, deps.ids, 1_000);
    this.upstreamIndex = new UpstreamIndex(deps.documents);
    this.callbackLedger = new CallbackLedger(deps.documents, {
      windowMs: replayWindowMs(deps.providers),
      nowMs: () => this.nowMs(),
      newId: () => deps.ids.uuid(),
    });
  }

  // ---- life cycle -------------------------------------------------------------------------

  /** Resumes every unfinished job and sweeps again every `silenceMs`; returns how many it resumed. */
  async start(): Promise<number> {
    if (this.state === 'stopped') return 0;
    this.state = 'running';
    // The replay window's deliveries, before any callback is taken; on failure the next tick loads them.
    await this.callbackLedger
      .refresh()
      .catch((error: unknown) => this.report(error, { during: 'callback ledger load' }));
    const resumed = await this.sweep();
    this.scheduleSweep();
    this.scheduleLedgerFlush();
    return resumed;
  }

  async stop(): Promise<void> {
    this.state = 'stopped';
    this.sweepCancel?.();
    this.flushCancel?.();
    for (const { cancel } of this.timers.values()) cancel();
    this.timers.clear();
    await this.idle();
    await this.callbackLedger
      .flush()
      .catch((error: unknown) => this.report(error, { during: 'callback ledger flush' }));
  }

  /** Resolves once nothing is in flight (tests wait on it). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || this.queues.size > 0) {
      await Promise.allSettled([...this.inFlight, ...this.queues.values()]);
    }
  }

  private async sweep(): Promise<number> {
    const ids =
      (await this.deps.activeJobs?.().catch((error: unknown) => {
        this.report(error, { during: 'sweep' });
        return [];
      })) ?? [];
    for (const jobId of ids) this.kick(jobId);
    return ids.length;
  }

  private scheduleSweep(): void {
    if (this.state !== 'running' || this.deps.activeJobs === undefined) return;
    this.sweepCancel = this.timer.schedule(this.timings.silenceMs, () => {
      void this.sweep().finally(() => this.scheduleSweep());
    });
  }

  /**
   * Callback ids reach the document store within a second, so a replay after a crash is refused
   * too, and other processes' ids reach this one a second later.
   */
  private scheduleLedgerFlush(): void {
    if (this.state !== 'running') return;
    this.flushCancel = this.timer.schedule(CALLBACK_LEDGER_FLUSH_MS, () => {
      void this.callbackLedger
        .flush()
        .then(() => this.callbackLedger.refresh())
        .catch((error: unknown) => this.report(error, { during: 'callback ledger flush' }))
        .finally(() => this.scheduleLedgerFlush());
    });
  }

  // ---- the media tools' port ----------------------------------------------------------------

  /** Orders the job (as a media tool in the executor does) and runs its plan here at once. */
  async request(input: GenerationRequestInput): Promise<GenerationJobView> {
    const ordered = await this.orders.request(input);
    await this.advance(ordered.jobId);
    return this.orders.view(ordered.jobId);
  }

  status(workspaceId: string, ref: { jobId: string } | { callId: string }): Promise<GenerationJobView | undefined> {
    return this.orders.status(workspaceId, ref);
  }

  quotePlan(work: readonly PlanWork[], workspaceId?: string): ReturnType<GenerationOrders['quotePlan']> {
    return this.orders.quotePlan(work, workspaceId);
  }

  prepare(workspaceId: string): Promise<void> {
    return this.orders.prepare(workspaceId);
  }

  /** The job a quote belongs to, from the account (a QuoteApproved names only the quote). */
  async jobOfQuote(workspaceId: string, quoteId: string): Promise<string | undefined> {
    return (await this.accounts.read(streams.account(workspaceId))).state.quotes[quoteId]?.jobId;
  }

  /**
   * The person resolved a card on a task (CheckpointResolved, from the bus): a paid call's card
   * advances its job (its approval is applied there, or its rejection declines it); an approved
   * budget card's money goes on the account now, and the workspace's waiting jobs are advanced.
   * Both are also done by each job's own plan, so a lost or repeated event changes nothing.
   */
  async onCheckpointResolved(workspaceId: string, taskId: string, checkpointId: string): Promise<void> {
    const task = (await this.tasks.read(streams.task(taskId))).state;
    if (task.status === 'none') return;
    const card = task.checkpoints[checkpointId];
    if (card?.resolution == null) return;
    if (card.kind === 'approval' && card.callId !== null) {
      await this.advance(generationJobId(workspaceId, card.callId));
      return;
    }
    if (card.kind !== 'budget') return;
    const budget = task.budgets.find((b) => b.checkpointId === checkpointId);
    if (budget !== undefined) await this.recordPlanBudgets(workspaceId, taskId, [budget]);
    await this.advanceWaiting(workspaceId);
  }

  /**
   * After a budget or new limits: every job of the workspace whose quote holds no money yet is
   * advanced (it reserves now, or asks again). Returns how many.
   */
  async advanceWaiting(workspaceId: string): Promise<number> {
    const account = (await this.accounts.read(streams.account(workspaceId))).state;
    const waiting = Object.values(account.quotes)
      .map((quote) => quote.jobId)
      .filter((jobId) => account.jobs[jobId] === undefined);
    await Promise.all(waiting.map((jobId) => this.advance(jobId)));
    return waiting.length;
  }

  // ---- callbacks ----------------------------------------------------------------------------

  /**
   * A callback delivery, raw: the provider's adapter verifies it (signature over the raw bytes,
   * timestamp), a replayed delivery id is refused, the job is found by its upstream id. Every
   * refusal is a CallbackRejectedError with its 4xx and appends nothing.
   */
  async receiveCallback(
    providerName: string,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    rawBody: Buffer,
  ): Promise<{ jobId: string; appended: boolean }> {
    const provider = this.providers.get(providerName);
    if (provider === undefined)
      throw new CallbackRejectedError(
        'CALLBACK_UNKNOWN_PROVIDER',
        `No generation provider named ${providerName.slice(0, 64)}`,
      );
    const event = provider.verifyCallback(headers, rawBody);
    const replayed = () =>
      new CallbackRejectedError('CALLBACK_REPLAYED', `Callback ${event.eventId} was processed already`);
    if (this.callbackLedger.seenBefore(provider.name, event.eventId)) throw replayed();
    const jobId = await this.upstreamIndex.jobOf(provider.name, event.upstreamJobId);
    if (jobId === undefined)
      throw new CallbackRejectedError('CALLBACK_UNKNOWN_JOB', `No job is upstream job ${event.upstreamJobId}`);
    if (!this.callbackLedger.claim(provider.name, event.eventId)) throw replayed();
    let processed = false;
    try {
      this.counters.callbacks += 1;
      const appended = await this.serialized(jobId, () =>
        this.onReport(jobId, {
          status: event.status,
          progress: event.progress,
          source: 'callback',
          callbackEventId: event.eventId,
          ...(event.failure !== undefined ? { failure: event.failure } : {}),
        }),
      );
      processed = true;
      return { jobId, appended };
    } finally {
      // Not processed (the store failed): the provider's retry is processed then.
      this.callbackLedger.release(provider.name, event.eventId, processed);
    }
  }

  // ---- the plan loop --------------------------------------------------------------------------

  /** Runs the job's plan until it waits; serialized per job in this process. */
  advance(jobId: string): Promise<void> {
    return this.serialized(jobId, () => this.run(jobId));
  }

  /** advance, in the background (bus events, timers, the sweep). */
  kick(jobId: string): void {
    if (this.state === 'stopped') return;
    this.track(this.advance(jobId).catch((error: unknown) => this.report(error, { jobId })));
  }

  private async run(jobId: string): Promise<void> {
    for (let round = 0; round < 16; round += 1) {
      const job = (await this.jobs.read(streams.generation(jobId))).state;
      if (job.status === 'none') return;
      const account = (await this.accounts.read(streams.account(job.workspaceId))).state;
      const provider = this.providers.get(job.provider);
      // The task is read only while nothing is reserved: what it says decides how the call is paid.
      const authority =
        job.status === 'requested' && account.jobs[jobId] === undefined ? await this.authorityOf(job) : undefined;
      const plan = planJob(
        job,
        account,
        this.nowMs(),
        {
          submitting: this.submitting.has(jobId),
          lastPolledAtMs: this.lastPolled.get(jobId),
          sendsCallbacks: provider?.sendsCallbacks ?? false,
        },
        this.timings,
        authority,
      );
      const next = await this.execute(job, plan);
      if (next === 'wait') return;
    }
  }

  private async execute(job: ExistingJob, plan: JobPlan): Promise<'again' | 'wait'> {
    switch (plan.kind) {
      case 'done':
        this.forgetTimer(job.jobId);
        if (job.status === 'completed' || job.status === 'failed') await this.conclude(job.jobId);
        return 'wait';
      case 'awaitApproval':
        this.forgetTimer(job.jobId);
        return 'wait';
      case 'settle':
        await this.settle(job, plan.steps);
        return 'again';
      case 'recordPlanBudgets':
        await this.recordPlanBudgets(job.workspaceId, job.taskId, plan.budgets, job.jobId);
        return 'again';
      case 'approveFromCard':
        await this.approveFromCard(job, plan.card, plan.extendBudgetMinor);
        return 'again';
      case 'decline':
        await this.fail(job, 'declined', plan.message);
        return 'again';
      case 'reserve':
        await this.reserve(job, plan.mode);
        return 'again';
      case 'startSubmission': {
        const started = await this.writeJob(job, { type: 'StartSubmission', at: this.now() });
        if (started) this.send(job);
        return 'again';
      }
      case 'awaitSubmit':
        this.wakeAt(job.jobId, plan.untilMs);
        return 'wait';
      case 'failSubmitTimeout':
        await this.fail(
          job,
          'submit_timeout',
          plan.sent
            ? 'No upstream id was recorded within the submit timeout; the upstream job, if any, is left to run'
            : 'The reservation expired before the request was sent',
        );
        return 'again';
      case 'poll':
        if (plan.atMs > this.nowMs()) {
          this.wakeAt(job.jobId, plan.atMs);
          return 'wait';
        }
        await this.poll(job as SubmittedJob);
        return 'again';
      case 'failSilent':
        await this.fail(job, 'outcome_unknown', 'The upstream reported nothing within the job timeout');
        return 'again';
      default: {
        const never: never = plan;
        throw new Error(`Unknown plan ${JSON.stringify(never)}`);
      }
    }
  }

  // ---- money ----------------------------------------------------------------------------------

  private async issueQuote(job: ExistingJob): Promise<void> {
    await this.writeAccount(job, {
      type: 'IssueQuote',
      quote: job.quote,
      jobId: job.jobId,
      taskId: job.taskId,
      callId: job.callId,
      at: job.requestedAt,
    });
  }

  private async reserve(job: ExistingJob, mode: PaymentMode): Promise<void> {
    await this.issueQuote(job);
    const now = this.nowMs();
    try {
      await this.writeAccount(job, {
        type: 'ReserveFunds',
        jobId: job.jobId,
        quoteId: job.quote.quoteId,
        at: new Date(now).toISOString(),
        expiresAt: new Date(now + this.timings.reservationTtlMs).toISOString(),
        mode,
        // Drills' no_budget_check mutation: reserved whatever the task's authority says.
        ...(this.deps.testControl?.mutation('no_budget_check') === true ? { skipBudgetCheck: true as const } : {}),
      });
    } catch (error) {
      if (!(error instanceof PaymentNotAuthorizedError)) throw error;
      await this.askApproval(job, error);
    }
  }

  /** What the job's task says about paying for the call (fail closed: a task not found pays per call). */
  private async authorityOf(job: ExistingJob): Promise<PaymentAuthority> {
    const stream = await this.tasks.read(streams.task(job.taskId));
    const own = stream.workspaceId === undefined || stream.workspaceId === job.workspaceId;
    return paymentAuthority(own ? stream.state : { status: 'none' }, job.callId, approvalCheckpointIdFor(job.callId));
  }

  /**
   * The plan budgets the person approved on the task, as money on the account (one budget id each,
   * so a repeat writes nothing). Recorded by this system component in the person's name: the
   * approval itself is the person's event on the task stream.
   */
  private async recordPlanBudgets(
    workspaceId: string,
    taskId: string,
    budgets: readonly PlanBudget[],
    correlationId = taskId,
  ): Promise<void> {
    for (const budget of budgets)
      await this.accounts.write(
        streams.account(workspaceId),
        {
          type: 'ApproveBudget',
          budgetId: budget.budgetId,
          taskId,
          ...(budget.checkpointId !== null ? { checkpointId: budget.checkpointId } : {}),
          amountMinor: budget.amountMinor,
          currency: budget.currency,
          approvedBy: budget.approvedBy,
          by: GENERATION_ACTOR,
          at: this.now(),
        },
        this.meta(workspaceId, correlationId, null),
      );
  }

  /**
   * The person approved the call's own card (on the task stream, before anything consumed it):
   * the quote is approved in their name, and when the budgets cannot hold it, the card's
   * approval is also a budget for this one job (the card showed the price and said so).
   */
  private async approveFromCard(
    job: ExistingJob,
    card: Extract<CardDecision, { state: 'approved' }>,
    extendBudgetMinor: number,
  ): Promise<void> {
    await this.deps.hooks?.beforeApplyingCardApproval?.(job.jobId);
    await this.issueQuote(job);
    if (extendBudgetMinor > 0)
      await this.writeAccount(job, {
        type: 'ApproveBudget',
        budgetId: planBudgetIdForCard(card.checkpointId),
        taskId: job.taskId,
        jobId: job.jobId,
        checkpointId: card.checkpointId,
        amountMinor: extendBudgetMinor,
        currency: job.quote.currency,
        approvedBy: card.resolvedBy,
        by: GENERATION_ACTOR,
        at: this.now(),
      });
    await this.writeAccount(job, {
      type: 'ApproveQuote',
      quoteId: job.quote.quoteId,
      approvedBy: card.resolvedBy,
      checkpointId: card.checkpointId,
      by: GENERATION_ACTOR,
      at: this.now(),
    });
  }

  /** No paid request without a recorded approval or a reservation within limits: ask the person. */
  private async askApproval(job: ExistingJob, refusal: PaymentNotAuthorizedError): Promise<void> {
    const checkpointId = approvalCheckpointIdFor(job.callId);
    const price = `${(job.quote.amountMinor / 100).toFixed(2)} ${job.quote.currency}`;
    const question =
      `Generate ${job.kind} with ${job.provider} for ${price} ("${job.params.prompt.slice(0, 120)}")? ` +
      `${refusal.message}.${beyondBudget(refusal) ? ' Approving it approves this price for this call.' : ''}`;
    try {
      await handleCommand(
        this.deps.store,
        streams.task(job.taskId),
        taskDecider,
        (state: TaskState) =>
          state.status !== 'none' && state.checkpoints[checkpointId] !== undefined
            ? []
            : [
                {
                  type: 'OpenCheckpoint' as const,
                  checkpointId,
                  turnId: job.turnId,
                  kind: 'approval' as const,
                  callId: job.callId,
                  question: question.slice(0, 2000),
                  argumentsHash: orderHash(job),
                  callQuote: {
                    quoteId: job.quote.quoteId,
                    amountMinor: job.quote.amountMinor,
                    currency: job.quote.currency,
                  },
                },
              ],
        {
          eventTypes: taskEventTypes,
          ids: this.deps.ids,
          metadata: this.meta(job.workspaceId, job.jobId, job.jobId),
        },
      );
    } catch (error) {
      // A stopped or ended task takes no checkpoint; the job still waits for an approval that
      // the API can record (approveQuote), or fails when the task's turn is cancelled.
      if (!(error instanceof DomainError)) throw error;
      this.report(error, { jobId: job.jobId, during: 'open approval checkpoint' });
    }
    const asked = await this.writeJob(job, {
      type: 'AskApproval',
      quoteId: job.quote.quoteId,
      checkpointId,
      refusal: refusal.code,
      at: this.now(),
    });
    if (asked) this.counters.approvalsAsked += 1;
  }

  private async settle(job: ExistingJob, steps: readonly SettlementStep[]): Promise<void> {
    for (const step of steps) {
      await this.deps.hooks?.beforeSettlementStep?.(job.jobId, step);
      if (step.stream === 'account') {
        const changed = await this.writeAccount(job, step.command);
        if (changed && step.command.type === 'ChargeJob') this.counters.charges += 1;
      } else await this.writeJob(job, step.command);
    }
  }

  // ---- submit ---------------------------------------------------------------------------------

  /** Only the writer of GenerationSubmissionStarted gets here, once per job. */
  private send(job: ExistingJob): void {
    this.submitting.add(job.jobId);
    const work = this.submitOnce(job)
      .catch((error: unknown) => this.report(error, { jobId: job.jobId, during: 'submit' }))
      .finally(() => {
        this.submitting.delete(job.jobId);
        this.kick(job.jobId);
      });
    this.track(work);
  }

  private async submitOnce(job: ExistingJob): Promise<void> {
    const provider = this.providerNamed(job.provider);
    const params = await this.paramsForSubmit(job);
    const deadline = this.nowMs() + this.timings.submitTimeoutMs;
    for (let attempt = 1; ; attempt += 1) {
      try {
        this.counters.submits += 1;
        const { upstreamJobId } = await provider.submit(params, job.callId);
        await this.deps.hooks?.afterUpstreamAccepted?.(job.jobId, upstreamJobId);
        await this.upstreamIndex.record(provider.name, upstreamJobId, job.jobId);
        await this.serialized(job.jobId, () =>
          this.writeJob(job, { type: 'RecordSubmission', upstreamJobId, at: this.now() }).then(() => undefined),
        );
        return;
      } catch (error) {
        const retriable = error instanceof GenerationRateLimitedError || error instanceof GenerationUnavailableError;
        if (retriable && attempt < this.timings.maxSubmitAttempts) {
          const delay = Math.max(
            backoffDelay(
              attempt,
              { initialDelayMs: this.timings.submitRetryInitialMs, maxDelayMs: this.timings.submitRetryMaxMs },
              this.deps.random,
            ),
            error instanceof GenerationRateLimitedError ? (error.retryAfterMs ?? 0) : 0,
          );
          if (this.nowMs() + delay < deadline - 1_000) {
            await this.sleep(delay);
            continue;
          }
        }
        await this.serialized(job.jobId, () => this.failFromSubmit(job, error));
        return;
      }
    }
  }

  /** Outcome unknown only when the request may have reached the upstream; anything else proves no job. */
  private async failFromSubmit(job: ExistingJob, error: unknown): Promise<boolean> {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof GenerationOutcomeUnknownError || !(error instanceof GenerationProviderError))
      return this.fail(job, 'outcome_unknown', `The submit's outcome is unknown: ${message}`);
    return this.fail(job, 'rejected', `The upstream refused the request: ${message}`, error.code);
  }

  private async paramsForSubmit(job: ExistingJob): Promise<GenerationParams> {
    const refs = job.params.options.referenceArtifactIds;
    const ids = Array.isArray(refs) ? refs.filter((r): r is string => typeof r === 'string') : [];
    const references = ids.length > 0 && this.deps.references ? await this.deps.references(job.workspaceId, ids) : [];
    const { referenceArtifactIds: _refs, ...options } = job.params.options;
    return {
      kind: job.kind,
      operation: job.operation,
      prompt: job.params.prompt,
      options,
      ...(references.length > 0 ? { references } : {}),
    };
  }

  // ---- progress and the end -----------------------------------------------------------------

  private async poll(job: SubmittedJob): Promise<void> {
    this.lastPolled.set(job.jobId, this.nowMs());
    const provider = this.providerNamed(job.provider);
    let state;
    try {
      state = await provider.poll(job.upstreamJobId);
    } catch (error) {
      // Unreachable or slow: the next poll tries again; a job that stays silent ends at the job timeout.
      this.report(error, { jobId: job.jobId, during: 'poll' });
      return;
    }
    await this.onReport(job.jobId, {
      status: state.status,
      progress: state.progress,
      source: 'poll',
      ...(state.result !== undefined ? { result: state.result } : {}),
      ...(state.failure !== undefined ? { failure: state.failure } : {}),
    });
  }

  /** True when something was appended. Runs inside the job's queue. */
  private async onReport(jobId: string, report: UpstreamReport): Promise<boolean> {
    const job = await this.submittedJob(jobId, report.status === 'queued' || report.status === 'processing');
    if (job === undefined) return false; // before the id is recorded, or after the end: ignored
    switch (report.status) {
      case 'queued':
      case 'processing': {
        const last = job.lastProgress;
        const now = this.now();
        if (!shouldPersistProgress(last, report, now)) {
          this.counters.progressCoalesced += 1;
          return false;
        }
        const appended = await this.writeJob(
          job,
          {
            type: 'RecordProgress',
            progress: Math.round(report.progress),
            status: report.status,
            source: report.source,
            ...(report.callbackEventId !== undefined ? { callbackEventId: report.callbackEventId } : {}),
            at: now,
          },
          // On the state folded so far: a stale one costs a lost race and a catch-up, not a wrong event.
          { fresh: false },
        );
        if (appended) this.counters.progressAppended += 1;
        else this.counters.progressCoalesced += 1;
        return appended;
      }
      case 'completed':
        return this.complete(job, report.result);
      case 'failed':
      case 'cancelled': {
        const failed = await this.fail(
          job,
          report.status === 'cancelled' ? 'cancelled' : 'upstream_failed',
          report.failure?.message ?? `The upstream reported the job ${report.status}`,
          report.failure?.code,
        );
        return failed;
      }
      default: {
        const never: never = report.status;
        throw new Error(`Unknown upstream status ${String(never)}`);
      }
    }
  }

  /**
   * Result → BlobStore → artefact → GenerationCompleted, then `conclude`. Each step is idempotent
   * (content-addressed blob, artefact id from the job), so a crash anywhere is repaired by the
   * next report, poll or sweep.
   */
  private async complete(job: SubmittedJob, given: UpstreamResult | undefined): Promise<boolean> {
    const provider = this.providerNamed(job.provider);
    const result = given ?? (await provider.poll(job.upstreamJobId)).result;
    if (result === undefined) {
      this.report(new Error('completed without a result'), { jobId: job.jobId });
      return false;
    }
    const bytes = await this.download(result);
    const blob = await this.deps.blobs.put(bytes, result.contentType);
    const artifactId = generationArtifactId(job.jobId);
    await this.deps.artifacts.create(
      {
        artifactId,
        kind: job.kind,
        title: titleOf(job),
        by: { kind: 'generation', jobId: job.jobId, taskId: job.taskId },
        taskId: job.taskId,
        content: { type: 'blob', bytes, contentType: result.contentType },
      },
      this.artifactMeta(job),
    );
    const completed = await this.writeJob(job, {
      type: 'CompleteGeneration',
      result: { hash: blob.hash, bytes: blob.bytes, contentType: blob.contentType },
      artifactId,
      at: this.now(),
    });
    if (completed) this.counters.completions += 1;
    await this.conclude(job.jobId);
    return completed;
  }

  private async fail(job: ExistingJob, reason: FailReason, message: string, upstreamCode?: string): Promise<boolean> {
    const failed = await this.writeJob(job, {
      type: 'FailGeneration',
      reason,
      message: message.slice(0, 2_000),
      ...(upstreamCode !== undefined && upstreamCode.length > 0 ? { upstreamCode: upstreamCode.slice(0, 200) } : {}),
      at: this.now(),
    });
    if (failed) this.counters.failures += 1;
    await this.conclude(job.jobId);
    return failed;
  }

  /**
   * After the job's end, whoever wrote it: settle the money, give the tool call the job's result
   * (the job stream decided which end it had; the turn stream follows it), and the one writer
   * whose append recorded that result decides the wake, so a job wakes its task at most once.
   * Runs again on every sweep of a recently ended job (a crash between these steps).
   */
  private async conclude(jobId: string): Promise<void> {
    await this.settleNow(jobId);
    const job = (await this.jobs.read(streams.generation(jobId))).state;
    if (job.status !== 'completed' && job.status !== 'failed') return;
    const outcome: CompletionOutcome =
      job.status === 'completed'
        ? {
            status: 'ok',
            result: {
              jobId: job.jobId,
              artifactId: job.artifactId,
              kind: job.kind,
              contentType: job.result.contentType,
              bytes: job.result.bytes,
              blobHash: job.result.hash,
              provider: job.provider,
              cost: { amountMinor: job.quote.amountMinor, currency: job.quote.currency },
            },
          }
        : {
            status: 'error',
            error: {
              code: failureCodes[job.reason],
              message: `${job.message} (job ${job.jobId}; nothing was charged, or the charge was refunded)`.slice(
                0,
                4_000,
              ),
              // Another call (a new job) may succeed where the upstream refused or failed this one.
              retriable: job.reason !== 'rejected' && job.reason !== 'declined',
            },
          };
    const { written } = await appendToolCompletion(this.deps.store, callRefOf(job), outcome, GENERATION_ACTOR);
    if (written) await this.decideWake(job);
  }

  /** Settles right away (a crash in between is repaired by the next run of the plan). */
  private async settleNow(jobId: string): Promise<void> {
    for (let round = 0; round < 4; round += 1) {
      const job = (await this.jobs.read(streams.generation(jobId))).state;
      if (job.status === 'none') return;
      const account = (await this.accounts.read(streams.account(job.workspaceId))).state;
      const plan = planJob(job, account, this.nowMs(), { submitting: false, sendsCallbacks: true }, this.timings);
      if (plan.kind !== 'settle') return;
      await this.settle(job, plan.steps);
    }
  }

  private async decideWake(job: ExistingJob): Promise<void> {
    const [task, turn] = await Promise.all([
      AggregateStream.read(this.deps.store, streams.task(job.taskId), taskDecider, taskEventTypes),
      AggregateStream.read(this.deps.store, streams.turn(job.turnId), turnDecider, turnEventTypes),
    ]);
    const plan = planWake(task.state, turn.state, job.turnId);
    switch (plan.kind) {
      case 'none':
        this.counters.settledWithoutWake += 1;
        return;
      case 'wake':
        try {
          await publishCompletionWake(this.deps.bus, callRefOf(job));
          this.counters.wakes += 1;
        } catch (error) {
          // The result is on the turn stream: the watchdog finds the waiting turn.
          this.report(error, { jobId: job.jobId, during: 'wake' });
        }
        return;
      case 'completeOneShot':
        await this.completeOneShot(job);
        return;
      default: {
        const never: never = plan;
        throw new Error(`Unknown wake plan ${JSON.stringify(never)}`);
      }
    }
  }

  /** A lightweight task's one job: its result is the answer; the turn and the task complete. */
  private async completeOneShot(job: ExistingJob): Promise<void> {
    const summary = `Made ${job.kind} ${generationArtifactId(job.jobId)} (${job.params.prompt.slice(0, 120)})`;
    const meta = this.meta(job.workspaceId, job.jobId, job.jobId);
    try {
      await handleCommand(
        this.deps.store,
        streams.turn(job.turnId),
        turnDecider,
        { type: 'CompleteWaitingTurn', summary },
        {
          eventTypes: turnEventTypes,
          ids: this.deps.ids,
          metadata: meta,
        },
      );
      await handleCommand(
        this.deps.store,
        streams.task(job.taskId),
        taskDecider,
        (state: TaskState) =>
          state.status === 'none' || state.status === 'completed'
            ? []
            : [
                { type: 'CloseTurn' as const, turnId: job.turnId, outcome: 'completed' as const },
                { type: 'CompleteTask' as const, summary },
              ],
        { eventTypes: taskEventTypes, ids: this.deps.ids, metadata: meta },
      );
      this.counters.oneShotsCompleted += 1;
    } catch (error) {
      // Someone else moved the turn or the task (a message arrived, the person stopped it): wake
      // instead, and the runtime decides on what it finds.
      if (!(error instanceof DomainError)) throw error;
      await publishCompletionWake(this.deps.bus, callRefOf(job)).catch((e: unknown) =>
        this.report(e, { jobId: job.jobId }),
      );
      this.counters.wakes += 1;
    }
  }

  private async download(result: UpstreamResult): Promise<Buffer> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await result.download();
      } catch (error) {
        const retriable = error instanceof ResultDownloadError ? error.retriable : !isLomoError(error);
        if (!retriable || attempt >= this.timings.downloadAttempts) throw error;
        await this.sleep(backoffDelay(attempt, { initialDelayMs: 200, maxDelayMs: 5_000 }, this.deps.random));
      }
    }
  }

  // ---- plumbing ---------------------------------------------------------------------------------

  private async writeJob(
    job: ExistingJob,
    command: GenerationJobCommand,
    options: { fresh?: boolean } = {},
  ): Promise<boolean> {
    const result = await this.jobs.write(
      streams.generation(job.jobId),
      command,
      this.meta(job.workspaceId, job.jobId, job.jobId),
      options,
    );
    return result.changed;
  }

  /**
   * The job a report is for, when it is running upstream. Progress is the hot path (every tick of
   * every job): the state folded in this process is taken as it is when it says submitted; a
   * stale view only makes the write lose its race and catch up. Anything else is read again
   * (another process may have recorded the submission, or the end, since): an end downloads
   * and stores a result, too much to do on a stale view.
   */
  private async submittedJob(jobId: string, progressOnly: boolean): Promise<SubmittedJob | undefined> {
    const cached = progressOnly ? this.jobs.peek(streams.generation(jobId))?.state : undefined;
    if (cached?.status === 'submitted') return cached;
    const job = (await this.jobs.read(streams.generation(jobId))).state;
    return job.status === 'submitted' ? job : undefined;
  }

  private async writeAccount(job: ExistingJob, command: AccountCommand): Promise<boolean> {
    const result = await this.accounts.write(
      streams.account(job.workspaceId),
      command,
      this.meta(job.workspaceId, job.jobId, job.jobId),
    );
    return result.changed;
  }

  private meta(workspaceId: string, correlationId: string, causationId: string | null): WriteMetadata {
    return metaOf(workspaceId, correlationId, causationId);
  }

  private artifactMeta(job: ExistingJob) {
    return { workspaceId: job.workspaceId, correlationId: job.jobId, causationId: job.jobId, actor: GENERATION_ACTOR };
  }

  /** One job's work at a time in this process; another process is fenced by the streams. */
  private serialized<T>(jobId: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(jobId) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(jobId, tail);
    void tail.then(() => {
      if (this.queues.get(jobId) === tail) this.queues.delete(jobId);
    });
    return run;
  }

  private wakeAt(jobId: string, atMs: number): void {
    if (this.state !== 'running') return;
    const existing = this.timers.get(jobId);
    if (existing !== undefined && existing.atMs <= atMs) return;
    existing?.cancel();
    const cancel = this.timer.schedule(Math.max(0, atMs - this.nowMs()), () => {
      this.timers.delete(jobId);
      this.kick(jobId);
    });
    this.timers.set(jobId, { atMs, cancel });
  }

  private forgetTimer(jobId: string): void {
    this.timers.get(jobId)?.cancel();
    this.timers.delete(jobId);
    this.lastPolled.delete(jobId);
  }

  private track(work: Promise<unknown>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.timer.schedule(ms, resolve));
  }

  private providerFor(kind: MediaKind): GenerationProvider {
    const name = this.deps.providerFor?.(kind) ?? this.deps.providers[0].name;
    return this.providerNamed(name);
  }

  private providerNamed(name: string): GenerationProvider {
    const provider = this.providers.get(name);
    if (provider === undefined) throw new Error(`No generation provider named ${name}`);
    return provider;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  private nowMs(): number {
    return this.deps.clock.now().getTime();
  }

  private report(error: unknown, context: Record<string, unknown>): void {
    this.deps.onError?.(error, context);
  }
}

const CALLBACK_LEDGER_FLUSH_MS = 1_000;

type FailReason = 'rejected' | 'outcome_unknown' | 'submit_timeout' | 'upstream_failed' | 'cancelled' | 'declined';

/** The card asks for money the budgets do not hold: approving it approves that price. */
const beyondBudget = (refusal: PaymentNotAuthorizedError) =>
  refusal.code === PaymentRefusals.BUDGET_EXCEEDED || refusal.code === PaymentRefusals.PLAN_BUDGET_EXCEEDED;

/** The tool call's error code for each way a job can fail. */
const failureCodes: Record<GenerationFailureReason, string> = {
  rejected: 'GENERATION_REJECTED',
  outcome_unknown: 'GENERATION_OUTCOME_UNKNOWN',
  submit_timeout: 'GENERATION_SUBMIT_TIMEOUT',
  upstream_failed: 'GENERATION_FAILED',
  cancelled: 'GENERATION_CANCELLED',
  declined: 'GENERATION_DECLINED',
};

function titleOf(job: ExistingJob): string {
  const prompt = job.params.prompt.replace(/\s+/g, ' ').trim();
  return (prompt.length > 80 ? `${prompt.slice(0, 79)}…` : prompt) || `${job.kind} ${job.jobId.slice(0, 8)}`;
}

function callRefOf(job: ExistingJob) {
  return {
    workspaceId: job.workspaceId,
    taskId: job.taskId,
    turnId: job.turnId,
    callId: job.callId,
    correlationId: job.jobId,
  };
}

/** Used when a provider that calls back does not say its tolerance. */
const UNSTATED_CALLBACK_TOLERANCE_MS = 24 * 60 * 60_000;
/** Clocks of writers and readers of the ledger may differ a little. */
const REPLAY_WINDOW_MARGIN_MS = 60_000;

/**
 * A delivery first processed at t (its signed timestamp within the tolerance of t) passes the
 * timestamp check up to twice the tolerance later, never after: so long it is remembered.
 */
function replayWindowMs(providers: readonly GenerationProvider[]): number {
  const tolerances = providers
    .filter((p) => p.sendsCallbacks)
    .map((p) => p.callbackToleranceMs ?? UNSTATED_CALLBACK_TOLERANCE_MS);
  return 2 * Math.max(0, ...tolerances) + REPLAY_WINDOW_MARGIN_MS;
}
