import { z } from 'zod';
import { blobRef, nonBlank, wakeReason } from './shared';
import {
  callId,
  checkpointId,
  itemId,
  languageTag,
  messageId,
  sha256Hex,
  taskId,
  toolName,
  turnId,
  userId,
  uuid,
} from '../ids';
import { actorSchema } from '../envelope';
import { MAX_MESSAGE_TEXT } from './main';
import { artifactAuthor } from './artifact';
import { toolDomain } from './turn';
import { amountMinor, currencyCode, mediaKind } from './generation';

export const taskKind = z.enum(['lightweight', 'persistent']);
export const taskStatus = z.enum(['active', 'waiting', 'paused', 'stopped', 'completed', 'archived']);
const step = z.number().int().min(1);

export const TaskCreated = z.strictObject({
  taskId,
  kind: taskKind,
  goal: nonBlank(2000),
  language: languageTag,
  originMessageId: messageId,
});

export const TaskUpgraded = z.strictObject({
  from: z.literal('lightweight'),
  to: z.literal('persistent'),
  reason: z.string().min(1).max(2000),
  /** Who upgraded it: the person, the router (kept revising) or the runtime (a multi-step goal). */
  by: actorSchema.optional(),
});

/**
 * The runtime's short summary of where a task stands, kept current after each turn for routing
 * (the routing index carries it; DESIGN.md §4 step 2). The latest one stands.
 */
export const TaskSummaryUpdated = z.strictObject({
  summary: z.string().min(1).max(1000),
  turnId: turnId.optional(),
  by: actorSchema,
});

/**
 * A correction: the person moved a message to another task. On the source task; an unconsumed
 * item is withdrawn by it, a consumed one stays and the target gets a copy with a note.
 */
export const MessageMoved = z.strictObject({
  itemId,
  messageId,
  toTaskId: taskId,
  consumed: z.boolean(),
  by: userId,
});

/**
 * A correction: two tasks were merged. On the source (its open inbox items move to the target and
 * it is archived with a pointer) and on the target (the items arrive as deliveries).
 */
export const TasksMerged = z.strictObject({
  sourceTaskId: taskId,
  targetTaskId: taskId,
  role: z.enum(['source', 'target']),
  movedItemIds: z.array(itemId).max(1000),
  by: userId,
});

export const BriefUpdated = z.strictObject({
  version: z.number().int().min(1),
  brief: z.string().min(1).max(20_000),
  by: actorSchema,
  /**
   * The agent's tool call that wrote it (absent when the person wrote it, and on briefs written
   * before it was recorded): its provenance, so a forgetting that excludes the step that made the
   * call leaves this version out of later prompts too (ContextExcluded.calls).
   */
  callId: callId.optional(),
});

const checklistItemId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/);

/**
 * What an item delivers, so that "done" can be checked against it: an artefact version
 * (`artifact`), `count` completed generation jobs of one media kind (`media`: paid, so the plan's
 * quote counts them), or the person's decision on a review card (`decision`). An item without one
 * takes any evidence the streams hold.
 */
export const checklistItemOutput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('artifact') }),
  z.strictObject({ kind: z.literal('media'), media: mediaKind, count: z.number().int().min(1).max(20) }),
  z.strictObject({ kind: z.literal('decision') }),
]);

export const ChecklistPlanned = z.strictObject({
  items: z
    .array(
      z.strictObject({
        itemId: checklistItemId,
        title: z.string().min(1).max(500),
        dependsOn: z.array(checklistItemId).max(50),
        /**
         * The person reviews this stage before anything after it runs (a direction, a storyboard,
         * a final shot): once it is done, the runtime opens a review card unless one is open.
         */
        needsConfirmation: z.boolean().optional(),
        output: checklistItemOutput.optional(),
      }),
    )
    .min(1)
    .max(100),
  /** The agent's tool call that planned it (absent when the person did): as BriefUpdated.callId. */
  callId: callId.optional(),
});

/**
 * What shows an item done, checked against the streams before it is recorded
 * (libs/runtime/src/commands/verify-evidence.ts): a version of an artefact the task made or uses,
 * or a generation job of the task that completed. A model's word is not evidence.
 */
export const checklistEvidence = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('artifact_version'), artifactId: uuid, version: z.number().int().min(1) }),
  z.strictObject({ kind: z.literal('job'), jobId: uuid }),
  /** Several completed jobs of the task: a media item of `count` > 1 needs that many. */
  z.strictObject({
    kind: z.literal('jobs'),
    jobIds: z
      .array(uuid)
      .min(1)
      .max(20)
      .refine((ids) => new Set(ids).size === ids.length, 'job ids are unique'),
  }),
  /** The person approved (or chose an option of) a review card about the item. */
  z.strictObject({ kind: z.literal('review'), checkpointId }),
]);

export const ChecklistItemChanged = z.strictObject({
  itemId: checklistItemId,
  status: z.enum(['pending', 'in_progress', 'done', 'blocked', 'skipped']),
  note: z.string().max(2000).optional(),
  evidence: checklistEvidence.optional(),
  /**
   * Artefacts this change links to the item (the evidence's artefact, a job's output). Links
   * accumulate and outlive status changes and re-plans that keep the item's id.
   */
  linkedArtifactIds: z.array(uuid).max(50).optional(),
});

export const MessageDeliveredToInbox = z
  .strictObject({
    /** Equals the message id, so a redelivery lands on the same item. */
    itemId,
    messageId,
    text: z.string().min(1).max(MAX_MESSAGE_TEXT),
    language: languageTag,
    /** Set when the message was moved or merged here from another task. */
    movedFrom: z.strictObject({ taskId, note: z.string().min(1).max(2000), consumedThere: z.boolean() }).optional(),
    /**
     * How the message came in (UserMessageReceived.channel): `api` is an integration's token, an
     * external system, whose paid work the person confirms call by call. Absent: the person's UI.
     */
    channel: z.enum(['ui', 'api', 'card']).optional(),
    /**
     * The person who sent it (absent on deliveries recorded before it was kept): whose memory a
     * step working on it may recall (a person's memory is theirs alone, even in a shared workspace).
     */
    from: userId.optional(),
  })
  .refine((d) => d.itemId === d.messageId, 'itemId equals messageId');

export const InboxItemWithdrawn = z.strictObject({ itemId, by: userId });

export const InboxItemReplaced = z.strictObject({
  itemId,
  text: z.string().min(1).max(MAX_MESSAGE_TEXT),
  language: languageTag,
  by: userId,
});

export const InboxItemsClaimed = z.strictObject({
  turnId,
  step,
  itemIds: z.array(itemId).min(1).max(100),
});

export const InboxItemsReleased = z.strictObject({
  turnId,
  step,
  itemIds: z.array(itemId).min(1).max(100),
  reason: z.enum(['turn_cancelled', 'turn_failed', 'step_abandoned']),
});

export const TurnOpened = z.strictObject({ turnId, reason: wakeReason });

export const TurnClosed = z.strictObject({ turnId, outcome: z.enum(['completed', 'failed', 'cancelled']) });

/**
 * After a completed turn, whether the runtime goes on by itself, decided from persisted state
 * (libs/runtime/src/process/plan-continuation.ts), never from whether the model stopped talking.
 */
export const ContinuationDecided = z.strictObject({
  turnId,
  decision: z.enum(['continue', 'finish', 'await_person', 'stop']),
  reason: z.enum([
    'pending_items',
    'checklist_complete',
    'no_plan',
    'checkpoint_open',
    'blocked',
    'no_progress',
    'turn_limit',
    /** A stage the person reviews is done: a review card is open for it. */
    'review_needed',
    /** The task was paused or stopped meanwhile. */
    'not_running',
    /** The next stage is paid and the plan's approved budget does not cover it: a budget card is open. */
    'budget_needed',
  ]),
  /** What the turn achieved that counts as progress (rewording a plan is not). */
  progress: z.array(z.enum(['artifact_version', 'item_done', 'job_submitted', 'person_input'])).max(4),
  /** Turns the runtime started by itself in a row, counting the one this decision starts. */
  autoTurns: z.number().int().min(0).max(100_000),
  /** Completed turns in a row without progress, this one included. */
  turnsWithoutProgress: z.number().int().min(0).max(100_000),
  /** Checklist items done when deciding, so the next decision sees what this turn completed. */
  itemsDone: z.number().int().min(0).max(100),
});

export const checkpointOptionId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/);

/**
 * What a plan's paid items cost, as the runtime quoted them for a budget card: each item's lines
 * (`totalMinor` is their sum), what the person approved for the plan before (`approvedMinor`),
 * and what approving the card approves (`amountMinor`, the difference).
 */
export const planQuote = z
  .strictObject({
    amountMinor: amountMinor.min(1),
    currency: currencyCode,
    totalMinor: amountMinor,
    approvedMinor: amountMinor,
    lines: z
      .array(
        z.strictObject({
          itemId: checklistItemId,
          media: mediaKind,
          count: z.number().int().min(1).max(20),
          amountMinor,
        }),
      )
      .min(1)
      .max(100),
  })
  .refine(
    (q) => q.lines.reduce((sum, l) => sum + l.amountMinor, 0) === q.totalMinor,
    'the total is the sum of the lines',
  )
  .refine(
    (q) => q.amountMinor === q.totalMinor - q.approvedMinor,
    'the card approves the total less what was approved',
  );

/** The price an approval card showed for its paid call. */
export const callQuote = z.strictObject({ quoteId: uuid, amountMinor, currency: currencyCode });

export const CheckpointOpened = z
  .strictObject({
    checkpointId,
    turnId,
    /**
     * approval: one paid or irreversible call; question: the agent asks; review: a stage of the
     * plan the person reviews; budget: the plan's paid items quoted as one total, approved once.
     */
    kind: z.enum(['approval', 'question', 'review', 'budget']),
    /** The exact tool call an approval would authorize. */
    callId: callId.optional(),
    question: z.string().min(1).max(4000),
    /** The checklist item a review is about. */
    itemId: checklistItemId.optional(),
    /** What the person may choose between (a review or a question). */
    options: z
      .array(z.strictObject({ optionId: checkpointOptionId, label: z.string().min(1).max(500) }))
      .min(2)
      .max(10)
      .optional(),
    /**
     * An approval: the sha-256 of the call as the card showed it (tool and arguments, or the
     * generation order), so an approval is never applied to a call that no longer matches.
     */
    argumentsHash: sha256Hex.optional(),
    /** A paid call's approval: the quote it showed. */
    callQuote: callQuote.optional(),
    /** A budget card: the plan's paid work and its total, what approving it approves. */
    planQuote: planQuote.optional(),
  })
  .refine((d) => d.kind !== 'approval' || d.callId !== undefined, 'an approval checkpoint names the call id')
  .refine((d) => d.kind !== 'approval' || (d.options === undefined && d.itemId === undefined), {
    message: 'an approval is about its call, with no item or options',
  })
  .refine(
    (d) => (d.kind === 'budget') === (d.planQuote !== undefined),
    'a budget card, and only it, carries a plan quote',
  )
  .refine(
    (d) => d.kind !== 'budget' || (d.callId === undefined && d.itemId === undefined && d.options === undefined),
    'a budget card is about the plan, with no call, item or options',
  )
  .refine(
    (d) => d.kind === 'approval' || (d.argumentsHash === undefined && d.callQuote === undefined),
    'only an approval names its call’s hash and quote',
  )
  .refine((d) => d.options === undefined || new Set(d.options.map((o) => o.optionId)).size === d.options.length, {
    message: 'option ids are unique',
  });

export const CheckpointResolved = z
  .strictObject({
    /**
     * approve / reject (an approval or a review), answer (a question), adjust (a review: redo the
     * item with `answer` as the person's note), choose (one of the card's `options`).
     */
    checkpointId,
    decision: z.enum(['approve', 'reject', 'answer', 'adjust', 'choose']),
    callId: callId.optional(),
    answer: z.string().min(1).max(MAX_MESSAGE_TEXT).optional(),
    choice: checkpointOptionId.optional(),
    resolvedBy: userId,
  })
  .refine((d) => d.decision !== 'answer' || d.answer !== undefined, 'an answer carries its text')
  .refine((d) => d.decision !== 'adjust' || d.answer !== undefined, 'an adjustment carries its note')
  .refine((d) => (d.decision === 'choose') === (d.choice !== undefined), 'a choice names one option, only with choose');

export const AutonomyChanged = z.strictObject({
  level: z.enum(['manual', 'assisted', 'autonomous']),
  by: userId,
});

export const PlanBudgetApproved = z.strictObject({
  budgetId: uuid,
  amountMinor: z.number().int().min(0).max(100_000_000),
  currency: z.string().regex(/^[A-Z]{3}$/),
  approvedBy: userId,
});

export const TaskPaused = z.strictObject({ by: actorSchema, reason: z.string().max(2000).optional() });
export const TaskResumed = z.strictObject({ by: actorSchema });
export const TaskStopped = z.strictObject({
  by: actorSchema,
  reason: z.string().max(2000).optional(),
  /** The active turn cancelled first (DESIGN.md §4 step 4). */
  cancelledTurnId: turnId.optional(),
});
export const TaskCompleted = z.strictObject({ summary: z.string().max(20_000).optional() });
export const TaskArchived = z.strictObject({
  by: actorSchema,
  /** Set when the task was archived because it was merged into another. */
  mergedInto: taskId.optional(),
});

/**
 * v2: an artefact the task last read or wrote at `fromVersion` is now at `toVersion` (someone
 * else wrote it). At most one notice per (task, artefact) is open: while it is, newer versions
 * widen it (ArtifactChangeNoticeWidened) instead of adding notices, until a step consumes it
 * (ArtifactChangeNoticesConsumed). `noticeId` derives from (task, artefact, to-version), so a
 * fan-out repeated after a crash lands on the same id. A notice never wakes the worker.
 */
export const ArtifactChangeNoticed = z.strictObject({
  noticeId: uuid,
  artifactId: uuid,
  fromVersion: z.number().int().min(0),
  toVersion: z.number().int().min(1),
  by: artifactAuthor,
  /** Flows: the nodes that changed between the two versions (structure changes included). */
  nodes: z.array(z.string().max(64)).max(5000),
  /** What changed, without the content (e.g. "2 snippets, +40 −12 chars"); empty when unknown. */
  summary: z.string().max(2000),
});

/** The open notice now spans up to `toVersion`; `nodes` and `summary` are the whole span's. */
export const ArtifactChangeNoticeWidened = z.strictObject({
  noticeId: uuid,
  toVersion: z.number().int().min(2),
  by: artifactAuthor,
  nodes: z.array(z.string().max(64)).max(5000),
  summary: z.string().max(2000),
});

/**
 * A step was shown these open notices and so consumed them. Appended with the step's claim
 * (same task-stream append, same expected revision) and keyed by turn + step like the claim, so
 * a takeover of the step reuses it instead of consuming again.
 */
export const ArtifactChangeNoticesConsumed = z.strictObject({
  turnId,
  step,
  noticeIds: z.array(uuid).min(1).max(1000),
});

/** A domain the model asked for (`tools.load`): its tools are offered from the next step on. */
export const ToolDomainsLoaded = z.strictObject({
  domains: z
    .array(toolDomain.exclude(['core']))
    .min(1)
    .max(7),
  turnId,
  step,
});

/** Domains loaded on request, unloaded at a compression boundary (the prefix changes there, on purpose). */
export const ToolDomainsUnloaded = z.strictObject({
  domains: z
    .array(toolDomain.exclude(['core']))
    .min(1)
    .max(7),
  reason: z.enum(['compression']),
});

/** A position in the task's history: a committed step of one of its turns. */
const historyPoint = z.strictObject({ turnId, step });

/**
 * A span of the task's earlier history, summarized (article §6.3): segments are appended, never
 * rewritten; a new one may supersede earlier ones (a merge, or a correction that invalidated what
 * they stated). The text lives in the BlobStore (DESIGN.md §4 "Deletable content"): the event holds
 * its reference and hash, and the range of steps it covers, so its sources can be opened.
 */
export const HistorySegmentAppended = z.strictObject({
  segmentId: uuid,
  covers: z.strictObject({ from: historyPoint, to: historyPoint, steps: z.number().int().min(1) }),
  text: blobRef,
  tokens: z.number().int().min(0),
  summarizer: z.enum(['extractive', 'model']),
  supersedes: z.array(uuid).max(1000),
});

/** Segments no step is shown any more (a correction invalidated them, or their content was forgotten). */
export const HistorySegmentsExcluded = z.strictObject({
  segmentIds: z.array(uuid).min(1).max(1000),
  reason: z.enum(['correction', 'forgotten']),
});

/**
 * What the person required, read from their message when a step claimed it (the runtime's
 * documented rules, libs/runtime/src/context/constraints.ts): each constraint names its subject;
 * one that `replaces` an earlier constraint on the same subject withdraws it, so the old one stops
 * reaching prompts (raw history, summaries and the tail alike).
 */
export const ConstraintsNoted = z.strictObject({
  itemId,
  turnId,
  step,
  constraints: z
    .array(
      z.strictObject({
        constraintId: uuid,
        subject: z.string().min(1).max(100),
        statement: z.string().min(1).max(2000),
        replaces: uuid.optional(),
      }),
    )
    .min(1)
    .max(50),
});

/**
 * A forgetting excluded, by recorded provenance, what this task's later prompts may show: the
 * forgotten messages and every step whose prompt saw them or a purged memory version (its reply
 * and its tool results). Never text matching (libs/memory, the forgetting cascade).
 */
export const ContextExcluded = z.strictObject({
  forgettingId: uuid,
  messageIds: z.array(uuid).max(1000),
  steps: z.array(z.strictObject({ turnId, step })).max(10_000),
  /**
   * Tool calls of the excluded steps that wrote the task's brief or checklist plan: what they
   * wrote is shown as left out until a later write replaces it.
   */
  calls: z.array(callId).max(10_000).optional(),
});

/**
 * Issue 20, `lomo task fork`: this task is a fork, an operator's copy of another task as it was at
 * one point, written to try something without touching the original. The fork's streams hold a copy
 * of the source's task stream up to `sourceRevision` and of its turns up to the same moment (new turn
 * ids, the copies caused by the source events); this event follows the copy. A fork's tool calls are
 * answered as stubbed, never run, until `ToolsArmed` names the tool. A later `ForkedFrom` (a fork of a
 * fork) replaces the lineage it shows and disarms every tool.
 */
export const ForkedFrom = z.strictObject({
  sourceTaskId: taskId,
  /** The last revision of the source's task stream the fork copied. */
  sourceRevision: z.number().int().min(0),
  /** The source's global position the fork was cut at (opaque: the store's own position). */
  sourcePosition: z.string().min(1).max(64),
  /** The committed step the operator named (`--at <turnId>:<step>`), when they named one. */
  atStep: z.strictObject({ turnId, step }).optional(),
  /** The source's turns and the fork's copies of them, in order. */
  turns: z.array(z.strictObject({ sourceTurnId: turnId, forkTurnId: turnId })).max(10_000),
  /** The turn that was running at the cut, cancelled in the fork (the source's keeps running). */
  cancelledTurnId: turnId.optional(),
  by: userId,
});

/** An operator re-armed a fork's tools: these run from now on (`all`: every tool). Cumulative. */
export const ToolsArmed = z.strictObject({
  tools: z.union([z.literal('all'), z.array(toolName).min(1).max(200)]),
  by: userId,
});
