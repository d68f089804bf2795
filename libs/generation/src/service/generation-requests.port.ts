import type { MediaKind } from '../provider/generation-provider.port';

/**
 * What the media tools need from the generation service (libs/generation/src/tools). The tool
 * records the order and answers `pending`; the service quotes it, reserves the money, submits it
 * once, follows it and completes the tool call on the turn stream (DESIGN.md §4 step 5).
 */
export const GENERATION_REQUESTS = Symbol('GENERATION_REQUESTS');

export interface GenerationRequestInput {
  workspaceId: string;
  taskId: string;
  turnId: string;
  /** The idempotency key: the tool call id `{turnId}:{step}:{index}`. */
  callId: string;
  correlationId: string;
  kind: MediaKind;
  /** The tool's name: `image.generate`, `image.edit`, `video.generate`, `model3d.generate`, `audio.generate`. */
  operation: string;
  prompt: string;
  /** What the tool's schema accepted (size, duration, voice, format...). */
  options: Record<string, unknown>;
  /** Artefacts whose latest version is the reference (image.edit, image to video). */
  referenceArtifactIds?: string[];
}

/**
 * A job as the agent and the API see it. `awaiting_approval`: the quote needs a person's approval
 * (an approval checkpoint is open on the task; `approveQuote(quoteId)` lets it go on).
 */
export type GenerationJobPhase = 'awaiting_approval' | 'requested' | 'submitted' | 'completed' | 'failed';

export interface GenerationJobView {
  jobId: string;
  callId: string;
  taskId: string;
  kind: MediaKind;
  operation: string;
  provider: string;
  phase: GenerationJobPhase;
  /** 0..100, the latest accepted progress. */
  progress: number;
  quote: { quoteId: string; amountMinor: number; currency: string; units: number; unit: string };
  artifactId?: string;
  failure?: { reason: string; message: string };
}

/** One checklist item's paid work as the runtime asks it priced (libs/runtime's PlanQuoter). */
export interface PlanWork {
  itemId: string;
  media: MediaKind;
  count: number;
}

export interface GenerationRequests {
  /**
   * The plan's paid items priced as one job of each kind at the provider's defaults, for the
   * plan's budget card; undefined when a kind has no provider or the prices are in several currencies.
   */
  quotePlan(
    work: readonly PlanWork[],
    workspaceId?: string,
  ): { currency: string; lines: Array<PlanWork & { amountMinor: number }>; coveredWithoutPlan?: boolean } | undefined;
  /** Reads what `quotePlan` needs to say whether the workspace's standing approvals cover a plan. */
  prepare?(workspaceId: string): Promise<void>;
  /** Records the order once per call id (a repeat answers the same job). */
  request(input: GenerationRequestInput): Promise<GenerationJobView>;
  /** The job by its id or by the call id that ordered it, from its stream; undefined if none. */
  status(workspaceId: string, ref: { jobId: string } | { callId: string }): Promise<GenerationJobView | undefined>;
}
