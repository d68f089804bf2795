import { ToolErrorCodes, ToolRegistry, type ToolResult } from '@lomo/tools';
import { generationArtifactId, generationJobId } from '../job/job-ids';
import type { MediaKind } from '../provider/generation-provider.port';
import type {
  GenerationJobPhase,
  GenerationJobView,
  GenerationRequestInput,
  GenerationRequests,
  PlanWork,
} from '../service/generation-requests.port';
import { createMediaTools } from '../tools/create-media-tools';

export interface FakeGenerationRequestsOptions {
  /** Minor units a request is quoted at; default 40 (0.40 USD). */
  priceMinor?: (input: GenerationRequestInput) => number;
  /** Quotes above this wait for approval, as the ledger's per-call limit would; default: none wait. */
  autoApproveUpToMinor?: number;
  currency?: string;
}

const UNITS: Readonly<Record<MediaKind, string>> = { image: 'image', video: 'second', '3d': 'model', audio: 'second' };

/**
 * GenerationRequests in memory, for the media tools' specs and anyone driving them: one job per
 * (workspace, call id) with the service's own id derivation, so a repeated call gets the same
 * job; `complete` / `fail` move a job on as the service would.
 */
export class FakeGenerationRequests implements GenerationRequests {
  /** Every request received, repeats included, in order. */
  readonly received: GenerationRequestInput[] = [];
  private readonly jobs = new Map<string, GenerationJobView & { workspaceId: string }>();

  constructor(private readonly options: FakeGenerationRequestsOptions = {}) {}

  request(input: GenerationRequestInput): Promise<GenerationJobView> {
    this.received.push(structuredClone(input));
    const jobId = generationJobId(input.workspaceId, input.callId);
    const existing = this.jobs.get(jobId);
    if (existing) return Promise.resolve(viewOf(existing));
    const amountMinor = this.options.priceMinor?.(input) ?? 40;
    const limit = this.options.autoApproveUpToMinor;
    const phase: GenerationJobPhase = limit !== undefined && amountMinor > limit ? 'awaiting_approval' : 'requested';
    const job = {
      workspaceId: input.workspaceId,
      jobId,
      callId: input.callId,
      taskId: input.taskId,
      kind: input.kind,
      operation: input.operation,
      provider: 'fake',
      phase,
      progress: 0,
      quote: {
        quoteId: `quote-${jobId}`,
        amountMinor,
        currency: this.options.currency ?? 'USD',
        units: 1,
        unit: UNITS[input.kind],
      },
    };
    this.jobs.set(jobId, job);
    return Promise.resolve(viewOf(job));
  }

  status(workspaceId: string, ref: { jobId: string } | { callId: string }): Promise<GenerationJobView | undefined> {
    const jobId = 'jobId' in ref ? ref.jobId : generationJobId(workspaceId, ref.callId);
    const job = this.jobs.get(jobId);
    return Promise.resolve(job && job.workspaceId === workspaceId ? viewOf(job) : undefined);
  }

  /** Each kind at this fake's one price (40 minor units unless `priceMinor` says otherwise for a default order). */
  quotePlan(work: readonly PlanWork[]): { currency: string; lines: Array<PlanWork & { amountMinor: number }> } {
    return {
      currency: this.options.currency ?? 'USD',
      lines: work.map((item) => ({ ...item, amountMinor: 40 * item.count })),
    };
  }

  /** The job ended well: progress 100 and its artefact, derived as the service derives it. */
  complete(jobId: string): GenerationJobView {
    return this.update(jobId, { phase: 'completed', progress: 100, artifactId: generationArtifactId(jobId) });
  }

  fail(jobId: string, reason = 'upstream_failed', message = 'the upstream failed'): GenerationJobView {
    return this.update(jobId, { phase: 'failed', failure: { reason, message } });
  }

  private update(jobId: string, change: Partial<GenerationJobView>): GenerationJobView {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`FakeGenerationRequests has no job ${jobId}`);
    Object.assign(job, change);
    return viewOf(job);
  }
}

function viewOf(job: GenerationJobView & { workspaceId: string }): GenerationJobView {
  const { workspaceId: _workspace, ...view } = job;
  return structuredClone(view);
}

// ---- The media tools over the fake, for their specs and anyone driving them
export function mediaToolsOverFake(options: FakeGenerationRequestsOptions = {}) {
  const requests = new FakeGenerationRequests(options);
  return { requests, registry: new ToolRegistry(createMediaTools(requests)) };
}

/** The typed argument error the model reads, or a failure naming what was accepted instead. */
export function argumentRefusal(registry: ToolRegistry, tool: string, args: unknown): string {
  const prepared = registry.prepare(tool, args);
  if (prepared.ok) throw new Error(`${tool} accepted ${JSON.stringify(args)}`);
  const { result } = prepared;
  if (result.status !== 'error' || result.error.code !== ToolErrorCodes.invalidArguments) {
    throw new Error(`expected ${ToolErrorCodes.invalidArguments}, got ${JSON.stringify(result)}`);
  }
  return result.error.message;
}

/** The parsed input, or a failure carrying the registry's message. */
export function acceptedArguments(registry: ToolRegistry, tool: string, args: unknown): Record<string, unknown> {
  const prepared = registry.prepare(tool, args);
  if (!prepared.ok) throw new Error(`${tool} refused ${JSON.stringify(args)}: ${JSON.stringify(prepared.result)}`);
  return prepared.call.input as Record<string, unknown>;
}

export function pendingNoteOf(result: ToolResult): string {
  if (result.status !== 'pending') throw new Error(`expected pending, got ${JSON.stringify(result)}`);
  return result.note ?? '';
}
