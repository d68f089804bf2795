import { streams, type Actor, type IdGenerator, type TestControl, type WriteMetadata } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { accountDecider } from '../account/account-decider';
import type { AccountCommand } from '../account/account-commands';
import { accountEventTypes, type AccountEvent } from '../account/account-events';
import { quoteIdFor } from '../account/account-ids';
import { dayKey, type AccountState } from '../account/account-state';
import { availableOf, totalsOf } from '../account/account-guards';
import { dayInTimeZone } from '../account/workspace-day';
import { generationJobDecider } from '../job/job-decider';
import type { GenerationJobCommand } from '../job/job-commands';
import { generationJobEventTypes, type GenerationJobEvent } from '../job/job-events';
import { generationJobId } from '../job/job-ids';
import type { GenerationJobState } from '../job/job-state';
import type { GenerationParams, GenerationProvider, MediaKind } from '../provider/generation-provider.port';
import { GenerationKindUnavailableError } from '../provider/generation-errors';
import { DecidedStreams } from './decided-streams';
import type {
  GenerationJobView,
  GenerationRequestInput,
  GenerationRequests,
  PlanWork,
} from './generation-requests.port';
import { jobView } from './job-view';

export const GENERATION_ACTOR: Actor = { kind: 'system', component: 'generation' };

export type JobStreams = DecidedStreams<GenerationJobCommand, GenerationJobEvent, GenerationJobState>;
export type AccountStreams = DecidedStreams<AccountCommand, AccountEvent, AccountState>;

export interface GenerationOrdersDeps {
  store: EventStore;
  ids: IdGenerator;
  /** Only `quote` is used here: pricing is local and sends nothing. */
  providers: readonly Pick<GenerationProvider, 'name' | 'quote'>[];
  providerFor?: (kind: MediaKind) => string;
  clock: { now(): Date };
  jobs?: JobStreams;
  accounts?: AccountStreams;
  /**
   * Drills' mutation switches and the `crash_after_media_order` crash point
   * (libs/platform/src/test-control/README.md); absent: every safeguard on, no crash point.
   */
  testControl?: Pick<TestControl, 'mutation' | 'crashPoint'>;
}

/**
 * Where media tools order jobs (the executor's side of DESIGN.md §4 step 5): the job stream's
 * first event, appended with "no stream" expected (one job per (workspace, call id)), then its
 * quote on the account. Nothing is reserved or sent here: the generation service
 * (./generation-service.ts) picks the order up from the bus and does the rest, in its own process.
 */
export class GenerationOrders implements GenerationRequests {
  readonly jobs: JobStreams;
  readonly accounts: AccountStreams;
  private readonly providers = new Map<string, Pick<GenerationProvider, 'name' | 'quote'>>();

  constructor(private readonly deps: GenerationOrdersDeps) {
    if (deps.providers.length === 0) throw new Error('Generation orders need at least one provider');
    for (const provider of deps.providers) this.providers.set(provider.name, provider);
    this.jobs = deps.jobs ?? new DecidedStreams(deps.store, generationJobDecider, generationJobEventTypes, deps.ids);
    this.accounts = deps.accounts ?? new DecidedStreams(deps.store, accountDecider, accountEventTypes, deps.ids, 1_000);
  }

  async request(input: GenerationRequestInput): Promise<GenerationJobView> {
    const provider = this.providerFor(input.kind);
    const params: GenerationParams = {
      kind: input.kind,
      operation: input.operation,
      prompt: input.prompt,
      options: input.options,
    };
    const quote = provider.quote(params);
    const callId = await this.idempotencyKeyOf(input);
    const jobId = generationJobId(input.workspaceId, callId);
    const meta = metaOf(input.workspaceId, input.correlationId, null);
    const refs = input.referenceArtifactIds ?? [];
    const written = await this.jobs.write(
      streams.generation(jobId),
      {
        type: 'RequestGeneration',
        workspaceId: input.workspaceId,
        taskId: input.taskId,
        turnId: input.turnId,
        callId,
        provider: provider.name,
        kind: input.kind,
        operation: input.operation,
        params: {
          prompt: input.prompt,
          options: (refs.length > 0
            ? { ...input.options, referenceArtifactIds: [...refs] }
            : { ...input.options }) as never,
        },
        quote: { ...quote, quoteId: quoteIdFor(jobId) },
        at: this.deps.clock.now().toISOString(),
      },
      meta,
    );
    const job = written.state;
    if (job.status === 'none') throw new Error(`Job ${jobId} was not recorded`);
    await this.accounts.write(
      streams.account(job.workspaceId),
      {
        type: 'IssueQuote',
        quote: job.quote,
        jobId: job.jobId,
        taskId: job.taskId,
        callId: job.callId,
        at: job.requestedAt,
      },
      metaOf(job.workspaceId, input.correlationId, null),
    );
    // Drills only (a no-op unless test control armed it): the process dies here, with the order
    // recorded (job and quote) and the media call started on the turn but without its pending
    // result, so the turn is not waiting on the call yet. That is the one moment a crash makes
    // the runtime retry the call after the restart (a call started without a result, idempotent),
    // so the retry must join this job (no_duplicate_check shows what happens when it does not).
    // A kill from outside cannot aim at it: from here to TurnWaiting takes milliseconds, and once
    // the turn waits on the call a restart only waits on the job. (The simulated upstream's
    // timeoutAfterCreate opens no such window: it hangs the submission, which the generation
    // service makes from the bus on its own; the tool has answered pending by then.)
    this.deps.testControl?.crashPoint?.('crash_after_media_order');
    return this.view(jobId);
  }

  /**
   * The call id: one job per call, so a retried or taken-over call joins the job it ordered. With
   * the drills' no_duplicate_check mutation a repeat of a call that has a job orders a new one,
   * under the first free sibling key of the call (`{turnId}:{step}:{index + 1000·n}`).
   */
  private async idempotencyKeyOf(input: GenerationRequestInput): Promise<string> {
    if (this.deps.testControl?.mutation('no_duplicate_check') !== true) return input.callId;
    const [turnId, step, index] = input.callId.split(':');
    for (let n = 0; ; n += 1) {
      const key = n === 0 ? input.callId : `${turnId}:${step}:${Number(index) + 1000 * n}`;
      const job = (await this.jobs.read(streams.generation(generationJobId(input.workspaceId, key)))).state;
      if (job.status === 'none') return key;
    }
  }

  async status(
    workspaceId: string,
    ref: { jobId: string } | { callId: string },
  ): Promise<GenerationJobView | undefined> {
    const jobId = 'jobId' in ref ? ref.jobId : generationJobId(workspaceId, ref.callId);
    const job = (await this.jobs.read(streams.generation(jobId))).state;
    if (job.status === 'none' || job.workspaceId !== workspaceId) return undefined;
    return this.view(jobId);
  }

  async view(jobId: string): Promise<GenerationJobView> {
    const job = (await this.jobs.read(streams.generation(jobId))).state;
    if (job.status === 'none') throw new Error(`No job ${jobId}`);
    const account = (await this.accounts.read(streams.account(job.workspaceId))).state;
    return jobView(job, account);
  }

  /** Reads the workspace's account, so `quotePlan` can tell whether its standing approvals cover a plan. */
  async prepare(workspaceId: string): Promise<void> {
    await this.accounts.read(streams.account(workspaceId));
  }

  quotePlan(work: readonly PlanWork[], workspaceId?: string): PlanQuote | undefined {
    const lines: Array<PlanWork & { amountMinor: number }> = [];
    let currency: string | undefined;
    for (const item of work) {
      let quote;
      try {
        quote = this.providerFor(item.media).quote({
          kind: item.media,
          operation: DEFAULT_OPERATIONS[item.media],
          prompt: item.itemId,
          options: {},
        });
      } catch {
        return undefined;
      }
      if (currency !== undefined && quote.currency !== currency) return undefined;
      currency = quote.currency;
      lines.push({ ...item, amountMinor: quote.amountMinor * item.count });
    }
    if (currency === undefined) return undefined;
    const account = workspaceId === undefined ? undefined : this.accounts.peek(streams.account(workspaceId))?.state;
    const coveredWithoutPlan =
      account !== undefined &&
      coveredByStandingApprovals(account, currency, lines, this.deps.clock.now().toISOString());
    return { currency, lines, coveredWithoutPlan };
  }

  private providerFor(kind: MediaKind): Pick<GenerationProvider, 'name' | 'quote'> {
    const name = this.deps.providerFor?.(kind) ?? this.deps.providers[0].name;
    const provider = this.providers.get(name);
    if (provider === undefined)
      throw new GenerationKindUnavailableError(`No provider makes ${kind} here`, { kind, provider: name });
    return provider;
  }
}

export type PlanQuote = {
  currency: string;
  lines: Array<PlanWork & { amountMinor: number }>;
  coveredWithoutPlan: boolean;
};

/**
 * Whether the workspace's budgets and auto-approve limits let every one of a plan's calls reserve
 * without a card: each call within the per-call limit, all of them within what is left of today's
 * limit and of the budgets. Then the plan needs no budget card of its own.
 */
function coveredByStandingApprovals(
  account: AccountState,
  currency: string,
  lines: ReadonlyArray<PlanWork & { amountMinor: number }>,
  now: string,
): boolean {
  const limits = account.limits;
  if (limits === null || limits.currency !== currency) return false;
  const total = lines.reduce((sum, l) => sum + l.amountMinor, 0);
  if (lines.some((l) => l.amountMinor / l.count > limits.perCallAutoApproveMinor)) return false;
  const used = account.autoApprovedByDay[dayKey(currency, dayInTimeZone(now, limits.timeZone))] ?? 0;
  return used + total <= limits.dailyAutoApproveMinor && total <= availableOf(totalsOf(account, currency));
}

/** The media tools' names: what a plan's default job of each kind is quoted as. */
const DEFAULT_OPERATIONS: Readonly<Record<MediaKind, string>> = {
  image: 'image.generate',
  video: 'video.generate',
  '3d': 'model3d.generate',
  audio: 'audio.generate',
};

export function metaOf(workspaceId: string, correlationId: string, causationId: string | null): WriteMetadata {
  return { workspaceId, correlationId, causationId, actor: GENERATION_ACTOR };
}
