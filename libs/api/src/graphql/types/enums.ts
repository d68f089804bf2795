import { registerEnumType } from '@nestjs/graphql';

// GraphQL names are upper case; the values are the read models' own strings, so documents map
// to the schema without translation tables.

export const TaskStatus = {
  ACTIVE: 'active',
  WAITING: 'waiting',
  PAUSED: 'paused',
  STOPPED: 'stopped',
  COMPLETED: 'completed',
  ARCHIVED: 'archived',
} as const;
export type TaskStatus = (typeof TaskStatus)[keyof typeof TaskStatus];

export const TaskKind = { LIGHTWEIGHT: 'lightweight', PERSISTENT: 'persistent' } as const;
export type TaskKind = (typeof TaskKind)[keyof typeof TaskKind];

/** `tasks(kind:)`: lightweight tasks (one-shot jobs) are listed only when asked for. */
export const TaskListKind = { LIGHTWEIGHT: 'lightweight', PERSISTENT: 'persistent', ALL: 'all' } as const;
export type TaskListKind = (typeof TaskListKind)[keyof typeof TaskListKind];

export const InboxItemStatus = {
  DELIVERED: 'delivered',
  CLAIMED: 'claimed',
  RELEASED: 'released',
  WITHDRAWN: 'withdrawn',
  REPLACED: 'replaced',
  MOVED: 'moved',
} as const;

export const TurnStatus = {
  QUEUED: 'queued',
  RUNNING: 'running',
  WAITING: 'waiting',
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
} as const;

export const ToolCallStatus = {
  INTENDED: 'intended',
  STARTED: 'started',
  COMPLETED: 'completed',
  UNKNOWN: 'unknown',
} as const;

export const ToolCallOutcome = { OK: 'ok', ERROR: 'error' } as const;

export const RoutingOutcome = {
  MAIN: 'main',
  LIGHTWEIGHT: 'lightweight',
  EXISTING: 'existing',
  NEW: 'new',
  CLARIFY: 'clarify',
} as const;

export const RoutingMethod = { DETERMINISTIC: 'deterministic', SEMANTIC: 'semantic' } as const;

export const ClarificationAction = { ROUTE: 'route', NEW: 'new', REOPEN: 'reopen' } as const;

export const ClarificationReason = {
  AMBIGUOUS: 'ambiguous',
  TARGET_UNAVAILABLE: 'target_unavailable',
  MODEL_UNAVAILABLE: 'model_unavailable',
  INVALID_ANSWER: 'invalid_answer',
  DUPLICATE: 'duplicate',
  MODEL_ASKED: 'model_asked',
} as const;

export const MessageChannel = { UI: 'ui', API: 'api', CARD: 'card' } as const;

export const MainLineItemKind = { MESSAGE: 'message', CARD: 'card', CHECKPOINTS: 'checkpoints' } as const;

/** A task's autonomy: how far the agent goes before asking the person. */
export const AutonomyLevel = { MANUAL: 'manual', ASSISTED: 'assisted', AUTONOMOUS: 'autonomous' } as const;
export type AutonomyLevel = (typeof AutonomyLevel)[keyof typeof AutonomyLevel];

export const ChecklistItemStatus = {
  PENDING: 'pending',
  IN_PROGRESS: 'in_progress',
  DONE: 'done',
  BLOCKED: 'blocked',
  SKIPPED: 'skipped',
} as const;
export type ChecklistItemStatus = (typeof ChecklistItemStatus)[keyof typeof ChecklistItemStatus];

export const ChecklistEvidenceKind = {
  ARTIFACT_VERSION: 'artifact_version',
  JOB: 'job',
  JOBS: 'jobs',
  REVIEW: 'review',
} as const;

/** What a checklist item delivers (the contracts' `output.kind`). */
export const ChecklistOutputKind = { ARTIFACT: 'artifact', MEDIA: 'media', DECISION: 'decision' } as const;
export type ChecklistOutputKind = (typeof ChecklistOutputKind)[keyof typeof ChecklistOutputKind];

export const CheckpointKind = {
  APPROVAL: 'approval',
  QUESTION: 'question',
  REVIEW: 'review',
  BUDGET: 'budget',
} as const;

/** GraphQL names upper case, values the domain's decisions. */
export const CheckpointDecision = {
  APPROVE: 'approve',
  REJECT: 'reject',
  ANSWER: 'answer',
  ADJUST: 'adjust',
  CHOOSE: 'choose',
} as const;
export type CheckpointDecision = (typeof CheckpointDecision)[keyof typeof CheckpointDecision];

/** Which of a task's checkpoint cards `Task.checkpoints` lists. */
export const CheckpointState = { OPEN: 'open', RESOLVED: 'resolved', ALL: 'all' } as const;
export type CheckpointState = (typeof CheckpointState)[keyof typeof CheckpointState];

/** A prompt's layers in their fixed order (libs/runtime/src/context/context-builder.ts). */
export const PromptLayerName = {
  PREFIX: 'prefix',
  HISTORY: 'history',
  RECENT: 'recent',
  TAIL: 'tail',
  INPUT: 'input',
  UNKNOWN: 'unknown',
} as const;
export type PromptLayerName = (typeof PromptLayerName)[keyof typeof PromptLayerName];

export const PrefixChange = {
  FIRST_STEP: 'first_step',
  PROFILE_VERSION: 'profile_version',
  TOOL_SET: 'tool_set',
  RULES: 'rules',
} as const;

export const ToolStrategy = { DYNAMIC: 'dynamic', MASKED: 'masked' } as const;

/** `3d` is no GraphQL name: THREE_D stands for it. */
export const ToolDomain = {
  CORE: 'core',
  IMAGE: 'image',
  VIDEO: 'video',
  AUDIO: 'audio',
  THREE_D: '3d',
  DOCUMENT: 'document',
  ASSET: 'asset',
  FLOW: 'flow',
} as const;

export const ChatRole = { SYSTEM: 'system', USER: 'user', ASSISTANT: 'assistant', TOOL: 'tool' } as const;

export const SegmentSummarizer = { EXTRACTIVE: 'extractive', MODEL: 'model' } as const;

/** Why content the events point at cannot be shown. */
export const ContentUnavailable = { PURGED: 'purged' } as const;

registerEnumType(TaskStatus, { name: 'TaskStatus' });
registerEnumType(AutonomyLevel, {
  name: 'AutonomyLevel',
  description:
    'How far the agent goes by itself on a task before asking you. Deleting and other irreversible steps always ask, and so do the stages marked for your review.',
  valuesMap: {
    MANUAL: { description: 'Ask before every paid step: each one waits for your approval of its price.' },
    ASSISTED: {
      description: 'Run paid steps within the budget you approved for the plan; ask beyond it. The default.',
    },
    AUTONOMOUS: {
      description:
        'Run the plan by itself: paid steps within the plan budget, and beyond it within your auto-approve limits (setSpendingLimits); ask beyond both.',
    },
  },
});
registerEnumType(ChecklistItemStatus, { name: 'ChecklistItemStatus' });
registerEnumType(ChecklistEvidenceKind, {
  name: 'ChecklistEvidenceKind',
  description:
    'What shows an item done: ARTIFACT_VERSION (a version of an artefact), JOB (a completed generation job), JOBS (several, for a media item of count > 1), REVIEW (you approved a review card about it).',
});
registerEnumType(ChecklistOutputKind, {
  name: 'ChecklistOutputKind',
  description:
    'What an item delivers: ARTIFACT (an artefact version), MEDIA (`count` completed generation jobs of one media kind; paid, so the plan budget counts them), DECISION (your decision on its review card).',
});
registerEnumType(CheckpointKind, {
  name: 'CheckpointKind',
  description:
    "APPROVAL of one paid or irreversible call (a paid one shows its `callQuote`); QUESTION the agent asks; REVIEW of a stage of the plan marked for your confirmation; BUDGET: the plan's paid items quoted as one total (`planQuote`), approved once for the plan.",
});
registerEnumType(CheckpointDecision, {
  name: 'CheckpointDecision',
  description:
    "APPROVE or REJECT an approval, a review or a budget card; ANSWER a question with `note` as the answer; ADJUST a review: redo the stage with `note` saying how; CHOOSE one of the card's options, named by `choice`.",
});
registerEnumType(CheckpointState, {
  name: 'CheckpointState',
  description: 'OPEN cards wait for your decision; RESOLVED ones were decided; ALL both.',
});
registerEnumType(TaskKind, { name: 'TaskKind' });
registerEnumType(TaskListKind, {
  name: 'TaskListKind',
  description: 'Which tasks `tasks` lists: lightweight ones only when asked for.',
});
registerEnumType(InboxItemStatus, { name: 'InboxItemStatus' });
registerEnumType(TurnStatus, { name: 'TurnStatus' });
registerEnumType(ToolCallStatus, { name: 'ToolCallStatus' });
registerEnumType(ToolCallOutcome, { name: 'ToolCallOutcome' });
registerEnumType(RoutingOutcome, { name: 'RoutingOutcome' });
registerEnumType(RoutingMethod, { name: 'RoutingMethod' });
registerEnumType(ClarificationAction, { name: 'ClarificationAction' });
registerEnumType(ClarificationReason, { name: 'ClarificationReason' });
registerEnumType(MessageChannel, { name: 'MessageChannel' });
registerEnumType(MainLineItemKind, {
  name: 'MainLineItemKind',
  description:
    "MESSAGE you sent (with its routing and Main's reply); CARD: a task card shown on its own; CHECKPOINTS: the checkpoint cards of a task you started, shown when its latest card opened.",
});
registerEnumType(PromptLayerName, {
  name: 'PromptLayerName',
  description:
    "A prompt's layers, in the order the model reads them: PREFIX (rules, the person's profile by version, the tool definitions: byte-identical while none of them changes, so the provider can cache it), HISTORY (summaries of older steps), RECENT (recent steps in full), TAIL (goal, brief, checklist, budget, constraints, change notices), INPUT (the messages this step read). UNKNOWN: a prompt archived before layers were kept, shown as one layer of all its messages.",
});
registerEnumType(PrefixChange, {
  name: 'PrefixChange',
  description:
    "Why a step's prefix differs from the task's step before: FIRST_STEP of the task, a new PROFILE_VERSION, another TOOL_SET (domains loaded or unloaded), changed RULES.",
});
registerEnumType(ToolStrategy, {
  name: 'ToolStrategy',
  description:
    'DYNAMIC: only the visible domains’ definitions are sent. MASKED: every definition is sent in a stable order and only the allowed ones may be called.',
});
registerEnumType(ToolDomain, {
  name: 'ToolDomain',
  description: 'A group of tools the model can be offered; CORE always is. THREE_D is the `3d` domain.',
});
registerEnumType(ChatRole, { name: 'ChatRole' });
registerEnumType(SegmentSummarizer, {
  name: 'SegmentSummarizer',
  description:
    "Who wrote a history summary: EXTRACTIVE (the deterministic summarizer, which keeps the person's stated constraints and decisions verbatim) or MODEL.",
});
registerEnumType(ContentUnavailable, {
  name: 'ContentUnavailable',
  description:
    'PURGED: the content was deleted from the blob store (forgotten or purged); the events still say what it was (its hash, size and range).',
});
