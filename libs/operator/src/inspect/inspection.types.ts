/**
 * What `lomo task inspect`, `lomo turn inspect`, the GraphQL operator queries and the web
 * inspector show: one shape for all of them, built from the event log (and the BlobStore for
 * archived prompts) only. Content that was forgotten never appears: a purged text is replaced by
 * `PURGED` and the entry says so.
 */

/** Stands for content that was forgotten (its blob deleted, or its message excluded). */
export interface Purged {
  purged: true;
  reason: string;
}
export const isPurged = (value: unknown): value is Purged =>
  typeof value === 'object' && value !== null && (value as { purged?: unknown }).purged === true;

export type TimelineKind =
  | 'routing'
  | 'task'
  | 'plan'
  | 'inbox'
  | 'turn'
  | 'lease'
  | 'step'
  | 'tool'
  | 'generation'
  | 'money'
  | 'checkpoint'
  | 'continuation'
  | 'memory'
  | 'artifact'
  | 'other';

/** One event of the timeline, in global order. */
export interface TimelineEntry {
  position: string;
  streamId: string;
  revision: number;
  occurredAt: string;
  type: string;
  kind: TimelineKind;
  /** One human line: what happened, never forgotten content. */
  summary: string;
  /** Who wrote it: `user:<id>`, `agent`, `system:<component>`; with the execution generation when a runtime write. */
  actor: string;
  generation: number | null;
}

export interface InspectedInboxItem {
  itemId: string;
  messageId: string;
  from: string | null;
  deliveredAt: string;
  text: string | Purged;
  /** The step that consumed it (`turnId#step`), or null while unclaimed, or withdrawn. */
  consumedBy: string | null;
  state: 'pending' | 'claimed' | 'consumed' | 'withdrawn' | 'replaced';
}

export interface InspectedPromptLayer {
  layer: string;
  tokens: number;
  /** The messages of the layer as sent. */
  messages: unknown[];
}

export interface InspectedPrompt {
  /** The archived prompt's blob reference (ModelStepCommitted.promptRef), as stored. */
  ref: unknown;
  /** Exactly what was sent: `{messages, tools}` as the archive returns it, canonical JSON. */
  canonicalJson: string | Purged;
  layers: InspectedPromptLayer[] | Purged;
  /** Names of the tool definitions sent. */
  tools: string[];
}

export interface InspectedLedgerEntry {
  callId: string;
  tool: string;
  status: 'intended' | 'started' | 'completed' | 'failed' | 'outcome_unknown';
  /** The result, or the typed error, as recorded; large results by reference. */
  result: unknown;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface InspectedStep {
  turnId: string;
  step: number;
  committedAt: string;
  generation: number | null;
  /** Inbox items this step consumed, with their text (or purged). */
  consumedItemIds: string[];
  consumedInboxItems: InspectedInboxItem[];
  reply: string | Purged | null;
  toolCallIntents: Array<{ callId: string; tool: string; arguments: unknown }>;
  /** Loaded from the BlobStore on demand (`--prompts`): absent means not loaded. */
  prompt?: InspectedPrompt;
  promptRef: unknown;
  usage: { inputTokens: number; outputTokens: number } | null;
  /** ModelStepCommitted.context: strategy, memory status, tokens (absent on old steps). */
  context: unknown;
  ledger: InspectedLedgerEntry[];
  /** Whether a forgetting excluded this step from later contexts (ContextExcluded). */
  excluded: boolean;
}

export interface InspectedLease {
  workerId: string;
  generation: number;
  leaseUntil: string;
  at: string;
  /** A takeover: the generation rose, so every later write of an older generation is refused. */
  takeover: boolean;
}

export interface InspectedTurn {
  turnId: string;
  taskId: string;
  workspaceId: string;
  reason: string | null;
  status: string;
  startedAt: string | null;
  endedAt: string | null;
  leases: InspectedLease[];
  /** Generations fenced off by a takeover: their writes after it are refused (metrics count them). */
  fencedGenerations: number[];
  /** Events written with a generation lower than the lease's at that point: should never exist. */
  staleWritesAccepted: Array<{
    /** The turn stream, or the task stream for a write about this turn (a claim, a card). */
    streamId: string;
    revision: number;
    type: string;
    generation: number;
    leaseGeneration: number;
  }>;
  steps: InspectedStep[];
  waits: Array<{ at: string; on: unknown }>;
  timeline: TimelineEntry[];
}

export interface InspectedGenerationJob {
  jobId: string;
  callId: string | null;
  provider: string | null;
  status: string;
  quote: unknown;
  chargedMinor: number;
  refundedMinor: number;
  currency: string | null;
}

export interface InspectedCheckpoint {
  checkpointId: string;
  kind: string;
  openedAt: string;
  resolution: unknown;
  resolvedAt: string | null;
}

export interface InspectedContinuation {
  at: string;
  decision: string;
  reason: string;
  turnId: string | null;
}

export interface TaskInspection {
  taskId: string;
  workspaceId: string;
  goal: string | Purged;
  status: string;
  routing: {
    messageId: string;
    outcome: string;
    method: string;
    candidates: unknown;
    at: string;
  } | null;
  inbox: InspectedInboxItem[];
  turns: InspectedTurn[];
  /** Every step of every turn, in order: the same objects as in `turns[].steps`. */
  steps: InspectedStep[];
  generationJobs: InspectedGenerationJob[];
  checkpoints: InspectedCheckpoint[];
  continuations: InspectedContinuation[];
  timeline: TimelineEntry[];
}
