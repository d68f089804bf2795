import { deterministicUuid, eventRegistry, LomoError } from '@lomo/contracts';
import { accountDecider } from '../account/account-decider';
import type { AccountCommand, PaymentMode } from '../account/account-commands';
import type { AccountEvent } from '../account/account-events';
import { holdsReservation } from '../account/account-queries';
import type { AccountState } from '../account/account-state';
import { settleJob, type SettlementStep } from '../account/settle-job';
import { generationJobDecider } from '../job/job-decider';
import type { GenerationJobCommand } from '../job/job-commands';
import type { GenerationJobEvent } from '../job/job-events';
import { generationJobId } from '../job/job-ids';
import type { GenerationJobState } from '../job/job-state';
import { at, callOf, genIds, issueQuoteOf, person, agentActor, requestOf } from './generation.fixtures';

/**
 * A small pure model of the generation process across both streams, for property tests:
 * request → quote → reserve → submit (charge on submit by settlement) → complete | fail →
 * settlement (refund or release), with the faults the real process meets: duplicates, timeouts,
 * callbacks out of order, crashes before the upstream id is recorded and between two writes,
 * approvals the agent forges. Every command goes through the real deciders; a refusal must be a
 * typed LomoError and changes nothing, as in libs/command-handling.
 */
export type ProcessStep =
  | { kind: 'request'; ws: number; key: number }
  | { kind: 'approve'; ws: number; key: number; byAgent: boolean }
  /** `mode`: how the task pays (per_call: manual or integration-directed; plan_or_limits: autonomous). */
  | { kind: 'reserve'; ws: number; key: number; mode?: PaymentMode }
  | { kind: 'submit'; ws: number; key: number; outcome: 'ok' | 'unknown' | 'rejected' | 'crash' }
  | { kind: 'duplicateSubmit'; ws: number; key: number; sameId: boolean }
  | {
      kind: 'callback';
      ws: number;
      key: number;
      progress: number;
      terminal: 'none' | 'completed' | 'failed';
      eventId: number;
    }
  | { kind: 'timeout'; ws: number; key: number }
  | { kind: 'settle'; ws: number; key: number; crashAfterFirst: boolean }
  | { kind: 'refund'; ws: number; key: number }
  | { kind: 'charge'; ws: number; key: number }
  /** `plan`: a budget for the task's plan (every key's job belongs to the one task). */
  | { kind: 'budget'; ws: number; amountMinor: number; plan?: boolean }
  | { kind: 'tick'; seconds: number };

export interface ProcessSetup {
  /** Price of each key (same keys in every workspace). */
  prices: readonly number[];
  workspaces: number;
  limits: { perCall: number; daily: number; timeZone: string };
  initialBudget: number;
}

interface Stream<S, E> {
  state: S;
  events: E[];
}

export class GenerationProcessModel {
  readonly accounts: Array<Stream<AccountState, AccountEvent>> = [];
  readonly jobs = new Map<string, Stream<GenerationJobState, GenerationJobEvent>>();
  /** Upstream orders actually made, by job: what a crash leaves behind. */
  readonly upstream = new Map<string, string>();
  /** Every event that failed its contract schema: must stay empty. */
  readonly schemaIssues: Array<{ type: string; issues: unknown }> = [];
  /** Jobs a `per_call` reservation held: only a person's approval of the quote may have allowed it. */
  readonly perCallReserved = new Set<string>();
  private seconds = 0;
  private budgets = 0;

  constructor(readonly setup: ProcessSetup) {
    for (let ws = 0; ws < setup.workspaces; ws += 1) {
      this.accounts.push({ state: accountDecider.initialState(), events: [] });
      this.account(ws, {
        type: 'SetLimits',
        currency: 'USD',
        perCallAutoApproveMinor: setup.limits.perCall,
        dailyAutoApproveMinor: setup.limits.daily,
        timeZone: setup.limits.timeZone,
        setBy: 'u1',
        by: person,
        at: this.now(),
      });
      this.budget(ws, setup.initialBudget);
    }
  }

  workspaceId = (ws: number): string => `ws${ws + 1}`;
  callIdOf = (key: number): string => callOf(1, key);
  jobIdOf = (ws: number, key: number): string => generationJobId(this.workspaceId(ws), this.callIdOf(key));
  now = (): string => at(this.seconds);

  private request(ws: number, key: number) {
    return {
      ...requestOf({
        callId: this.callIdOf(key),
        workspaceId: this.workspaceId(ws),
        amountMinor: this.setup.prices[key],
      }),
      at: this.now(),
    };
  }

  private check(events: ReadonlyArray<{ type: string; data: unknown }>): void {
    for (const e of events) {
      const parsed = eventRegistry.get(e.type)?.schema.safeParse(e.data);
      if (parsed === undefined || !parsed.success)
        this.schemaIssues.push({ type: e.type, issues: parsed?.error?.issues });
    }
  }

  /** Decides and appends; a typed refusal appends nothing. Returns whether anything was appended. */
  private run<C, E extends { type: string; data: unknown }, S>(
    decider: { decide: (c: C, s: S) => E[]; evolve: (s: S, e: E) => S },
    stream: Stream<S, E>,
    command: C,
  ): boolean {
    let events: E[];
    try {
      events = decider.decide(command, stream.state);
    } catch (e) {
      if (e instanceof LomoError && e.retriable === false) return false;
      throw e;
    }
    this.check(events);
    for (const e of events) stream.state = decider.evolve(stream.state, e);
    stream.events.push(...events);
    return events.length > 0;
  }

  account(ws: number, command: AccountCommand): boolean {
    return this.run(accountDecider, this.accounts[ws], command);
  }

  job(ws: number, key: number, command: GenerationJobCommand): boolean {
    const jobId = this.jobIdOf(ws, key);
    const stream = this.jobs.get(jobId) ?? { state: generationJobDecider.initialState(), events: [] };
    const changed = this.run(generationJobDecider, stream, command);
    // A stream exists once something was appended to it ("no stream" expected for the first write).
    if (stream.events.length > 0) this.jobs.set(jobId, stream);
    return changed;
  }

  jobState(ws: number, key: number): GenerationJobState {
    return this.jobs.get(this.jobIdOf(ws, key))?.state ?? { status: 'none' };
  }

  budget(ws: number, amountMinor: number, plan = false): void {
    this.budgets += 1;
    this.account(ws, {
      type: 'ApproveBudget',
      budgetId: deterministicUuid('lomo.test.budget', String(this.budgets)),
      ...(plan ? { taskId: genIds.task } : {}),
      amountMinor,
      currency: 'USD',
      approvedBy: 'u1',
      by: person,
      at: this.now(),
    });
  }

  private reserve(ws: number, key: number, mode: PaymentMode = 'within_plan'): void {
    const job = this.jobState(ws, key);
    if (job.status !== 'requested') return;
    const reserved = this.account(ws, {
      type: 'ReserveFunds',
      jobId: job.jobId,
      quoteId: job.quote.quoteId,
      at: this.now(),
      expiresAt: at(this.seconds + 600),
      mode,
    });
    if (reserved && mode === 'per_call') this.perCallReserved.add(job.jobId);
  }

  private settle(ws: number, key: number, crashAfterFirst: boolean): number {
    const steps: SettlementStep[] = settleJob(this.jobState(ws, key), this.accounts[ws].state, this.now());
    for (const [i, step] of steps.entries()) {
      if (crashAfterFirst && i > 0) break;
      if (step.stream === 'account') this.account(ws, step.command);
      else this.job(ws, key, step.command);
    }
    return steps.length;
  }

  apply(step: ProcessStep): void {
    this.seconds += 1;
    switch (step.kind) {
      case 'request': {
        const request = this.request(step.ws, step.key);
        this.job(step.ws, step.key, request);
        this.account(step.ws, issueQuoteOf(request));
        this.reserve(step.ws, step.key);
        return;
      }
      case 'approve': {
        const job = this.jobState(step.ws, step.key);
        if (job.status === 'none') return;
        const command = {
          type: 'ApproveQuote' as const,
          quoteId: job.quote.quoteId,
          approvedBy: 'u1',
          by: step.byAgent ? agentActor : person,
          at: this.now(),
        };
        this.account(step.ws, command);
        if (step.byAgent) {
          // The agent bypassing the decider: its recorded approval must resolve nothing.
          const forged: AccountEvent = {
            type: 'QuoteApproved',
            data: { quoteId: job.quote.quoteId, approvedBy: 'u1', approvedAt: this.now() },
            recordedBy: agentActor,
          };
          const stream = this.accounts[step.ws];
          stream.state = accountDecider.evolve(stream.state, forged);
          stream.events.push(forged);
        }
        this.reserve(step.ws, step.key);
        return;
      }
      case 'reserve':
        this.reserve(step.ws, step.key, step.mode);
        return;
      case 'submit': {
        const job = this.jobState(step.ws, step.key);
        // The app submits only a requested job whose money is held (a paid call needs it).
        if (job.status !== 'requested' || !holdsReservation(this.accounts[step.ws].state, job.jobId)) return;
        if (this.upstream.has(job.jobId)) return; // one key, one order: never resubmitted
        // Only the writer that records the start sends; a started job is someone else's to send.
        if (job.submissionStartedAt !== null) return;
        this.job(step.ws, step.key, { type: 'StartSubmission', at: this.now() });
        const upstreamJobId = `up-${job.jobId.slice(0, 8)}`;
        switch (step.outcome) {
          case 'ok':
            this.upstream.set(job.jobId, upstreamJobId);
            this.job(step.ws, step.key, { type: 'RecordSubmission', upstreamJobId, at: this.now() });
            return;
          case 'unknown':
            this.upstream.set(job.jobId, upstreamJobId);
            this.job(step.ws, step.key, {
              type: 'FailGeneration',
              reason: 'outcome_unknown',
              message: 'no answer',
              at: this.now(),
            });
            return;
          case 'rejected':
            this.job(step.ws, step.key, { type: 'FailGeneration', reason: 'rejected', message: '400', at: this.now() });
            return;
          case 'crash':
            // Sent, then the worker died before recording the id.
            this.upstream.set(job.jobId, upstreamJobId);
            return;
        }
        return;
      }
      case 'duplicateSubmit': {
        const jobId = this.jobIdOf(step.ws, step.key);
        const made = this.upstream.get(jobId);
        if (made === undefined || !this.jobs.has(jobId)) return;
        this.job(step.ws, step.key, {
          type: 'RecordSubmission',
          upstreamJobId: step.sameId ? made : `${made}-other`,
          at: this.now(),
        });
        return;
      }
      case 'callback': {
        const jobId = this.jobIdOf(step.ws, step.key);
        if (!this.upstream.has(jobId) || !this.jobs.has(jobId)) return;
        const callbackEventId = `evt-${step.eventId}`;
        if (step.terminal === 'completed')
          this.job(step.ws, step.key, {
            type: 'CompleteGeneration',
            result: { hash: 'c'.repeat(64), bytes: 10, contentType: 'image/png' },
            artifactId: deterministicUuid('lomo.test.artifact', jobId),
            at: this.now(),
          });
        else if (step.terminal === 'failed')
          this.job(step.ws, step.key, {
            type: 'FailGeneration',
            reason: 'upstream_failed',
            message: 'failed',
            at: this.now(),
          });
        else
          this.job(step.ws, step.key, {
            type: 'RecordProgress',
            progress: step.progress,
            status: 'processing',
            source: 'callback',
            callbackEventId,
            at: this.now(),
          });
        return;
      }
      case 'timeout': {
        const job = this.jobState(step.ws, step.key);
        if (job.status === 'requested')
          this.job(step.ws, step.key, {
            type: 'FailGeneration',
            reason: 'submit_timeout',
            message: 'no upstream id',
            at: this.now(),
          });
        else if (job.status === 'submitted')
          this.job(step.ws, step.key, {
            type: 'FailGeneration',
            reason: 'outcome_unknown',
            message: 'no report',
            at: this.now(),
          });
        return;
      }
      case 'settle':
        this.settle(step.ws, step.key, step.crashAfterFirst);
        return;
      case 'refund': {
        // Only settlement refunds, and only failed jobs: this is it repeated at a random moment
        // (a stale or retried handler), possibly before the charge it refunds was written.
        const job = this.jobState(step.ws, step.key);
        if (job.status === 'failed')
          this.account(step.ws, { type: 'RefundJob', jobId: job.jobId, reason: job.reason, at: this.now() });
        return;
      }
      case 'charge': {
        // Only settlement charges, once the upstream id is recorded: this is it repeated late.
        const job = this.jobState(step.ws, step.key);
        if (
          job.status !== 'none' &&
          job.status !== 'requested' &&
          !(job.status === 'failed' && job.upstreamJobId === null)
        )
          this.account(step.ws, { type: 'ChargeJob', jobId: job.jobId, at: this.now() });
        return;
      }
      case 'budget':
        this.budget(step.ws, step.amountMinor, step.plan === true);
        return;
      case 'tick':
        this.seconds += step.seconds;
        return;
    }
  }

  /** The watchdog's end: every open job times out and every job is settled until nothing is left to write. */
  quiesce(): void {
    this.seconds += 700;
    for (let ws = 0; ws < this.setup.workspaces; ws += 1)
      for (let key = 0; key < this.setup.prices.length; key += 1) {
        this.apply({ kind: 'timeout', ws, key });
        for (let round = 0; round < 5 && this.settle(ws, key, false) > 0; round += 1);
      }
  }

  /** Per (workspace, key): the money the account ledger and the job stream hold for it. */
  ledgerOf(ws: number, key: number) {
    const jobId = this.jobIdOf(ws, key);
    const events = this.accounts[ws].events;
    const sum = (type: AccountEvent['type']) =>
      events
        .filter((e) => e.type === type && (e.data as { jobId?: string }).jobId === jobId)
        .reduce((n, e) => n + (e.data as { amountMinor: number }).amountMinor, 0);
    const job = this.jobs.get(jobId);
    return {
      jobId,
      price: this.setup.prices[key],
      charged: sum('JobCharged'),
      refunded: sum('JobRefunded'),
      reserved: sum('FundsReserved') - sum('ReservationReleased') - sum('JobCharged'),
      requests: [...this.jobs.values()].reduce(
        (n, s) =>
          n +
          s.events.filter(
            (e) =>
              e.type === 'GenerationRequested' &&
              e.data.workspaceId === this.workspaceId(ws) &&
              e.data.callId === this.callIdOf(key),
          ).length,
        0,
      ),
      jobStatus: job?.state.status ?? 'none',
      job: job?.state ?? ({ status: 'none' } as GenerationJobState),
    };
  }
}
