import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from './connection';
import {
  AutonomyLevel,
  CheckpointDecision,
  CheckpointKind,
  ChecklistEvidenceKind,
  ChecklistItemStatus,
  ChecklistOutputKind,
  InboxItemStatus,
  TaskKind,
  TaskStatus,
  TurnStatus,
} from './enums';

@ObjectType()
export class TaskCounts {
  @Field(() => Int)
  inboxPending!: number;

  @Field(() => Int)
  inboxClaimed!: number;

  @Field(() => Int)
  inboxWithdrawn!: number;

  @Field(() => Int, { description: 'Unread messages moved (or merged) to another task.' })
  inboxMoved!: number;

  @Field(() => Int)
  turns!: number;

  @Field(() => Int)
  steps!: number;
}

@ObjectType({
  description: "The task's one active turn as the task knows it; `Task.activeTurn` reads the turn itself.",
})
export class ActiveTurnSummary {
  @Field(() => ID)
  turnId!: string;

  @Field(() => TurnStatus, { nullable: true })
  status!: string | null;

  @Field(() => Int)
  steps!: number;
}

@ObjectType({
  description:
    "After a completed turn, the runtime's decision whether to go on by itself, from the task's persisted state, with its reason.",
})
export class ContinuationDecision {
  @Field(() => ID)
  turnId!: string;

  @Field(() => String, { description: 'continue | finish | await_person | stop' })
  decision!: string;

  @Field(() => String, {
    description:
      'pending_items | checklist_complete | no_plan | checkpoint_open | blocked | no_progress | turn_limit | review_needed | not_running | budget_needed (the next stage is paid beyond the plan budget: a BUDGET card is open)',
  })
  reason!: string;

  @Field(() => [String], {
    description:
      'What the turn achieved: artifact_version, item_done, job_submitted, person_input (empty: no progress).',
  })
  progress!: string[];

  @Field(() => Int, { description: 'Turns the runtime started by itself in a row.' })
  autoTurns!: number;

  @Field(() => Int, { description: 'Completed turns in a row without progress.' })
  turnsWithoutProgress!: number;
}

@ObjectType({ description: "The task's brief: the direction the person and the agent agreed on." })
export class TaskBrief {
  @Field(() => Int, { description: 'Starts at 1; each change adds one.' })
  version!: number;

  @Field(() => String)
  text!: string;
}

@ObjectType({ description: 'What shows a checklist item done; the fields of its kind are set, the others null.' })
export class ChecklistEvidence {
  @Field(() => ChecklistEvidenceKind)
  kind!: string;

  @Field(() => ID, { nullable: true, description: 'ARTIFACT_VERSION: the artefact.' })
  artifactId!: string | null;

  @Field(() => Int, { nullable: true, description: 'ARTIFACT_VERSION: its version.' })
  version!: number | null;

  @Field(() => ID, { nullable: true, description: 'JOB: the completed generation job.' })
  jobId!: string | null;

  @Field(() => [ID], { nullable: true, description: 'JOBS: the completed generation jobs.' })
  jobIds!: string[] | null;

  @Field(() => ID, { nullable: true, description: 'REVIEW: the review card you approved.' })
  checkpointId!: string | null;
}

@ObjectType({ description: 'What a checklist item delivers: its evidence must be of this kind to count.' })
export class ChecklistItemOutput {
  @Field(() => ChecklistOutputKind)
  kind!: string;

  @Field(() => String, { nullable: true, description: 'MEDIA: image, video, 3d or audio.' })
  media!: string | null;

  @Field(() => Int, { nullable: true, description: 'MEDIA: how many completed jobs (1 to 20).' })
  count!: number | null;
}

@ObjectType({ description: "One stage of the task's plan." })
export class ChecklistItem {
  @Field(() => ID)
  itemId!: string;

  @Field(() => String)
  title!: string;

  @Field(() => [ID], { description: 'Items of the plan that come first.' })
  dependsOn!: string[];

  @Field(() => ChecklistItemStatus)
  status!: string;

  @Field(() => String, { nullable: true })
  note!: string | null;

  @Field(() => Boolean, { description: 'You review this stage before anything after it runs.' })
  needsConfirmation!: boolean;

  @Field(() => ChecklistEvidence, { nullable: true, description: 'Set while the item is done.' })
  evidence!: ChecklistEvidence | null;

  @Field(() => ChecklistItemOutput, { nullable: true, description: 'What it delivers, when the plan says.' })
  output!: ChecklistItemOutput | null;

  @Field(() => [ID], {
    description: 'Artefacts made or used for it, oldest first; kept when its status changes or the plan is redone.',
  })
  linkedArtifactIds!: string[];
}

@ObjectType()
export class CheckpointOption {
  @Field(() => String, { description: 'What `resolveCheckpoint(decision: CHOOSE, choice:)` names.' })
  optionId!: string;

  @Field(() => String)
  label!: string;
}

@ObjectType({ description: "The person's decision on a checkpoint card." })
export class CheckpointResolution {
  @Field(() => CheckpointDecision)
  decision!: string;

  @Field(() => String, { nullable: true, description: 'The answer, the adjustment asked for, or why.' })
  note!: string | null;

  @Field(() => String, { nullable: true, description: 'CHOOSE: the option chosen.' })
  choice!: string | null;

  @Field(() => ID, { description: 'The user who decided.' })
  resolvedBy!: string;

  @Field(() => String)
  resolvedAt!: string;
}

@ObjectType({ description: 'The price an APPROVAL card shows for its paid call.' })
export class CallQuote {
  @Field(() => ID)
  quoteId!: string;

  @Field(() => Int, { description: 'In minor units of the currency (cents for USD).' })
  amountMinor!: number;

  @Field(() => String, { description: 'ISO 4217 code.' })
  currency!: string;
}

@ObjectType({ description: 'One paid item of the plan as a BUDGET card quotes it, e.g. 3 video for 120 cents.' })
export class PlanQuoteLine {
  @Field(() => ID, { description: 'The checklist item.' })
  itemId!: string;

  @Field(() => String, { description: 'image, video, 3d or audio.' })
  media!: string;

  @Field(() => Int)
  count!: number;

  @Field(() => Int)
  amountMinor!: number;
}

@ObjectType({
  description:
    "What a BUDGET card asks: the plan's paid items and their total; approving the card approves `amountMinor` (the total less what you approved before) as the plan budget.",
})
export class PlanQuote {
  @Field(() => Int, { description: 'What approving the card approves.' })
  amountMinor!: number;

  @Field(() => String, { description: 'ISO 4217 code.' })
  currency!: string;

  @Field(() => Int, { description: 'The sum of the lines.' })
  totalMinor!: number;

  @Field(() => Int, { description: 'Approved for the plan before this card.' })
  approvedMinor!: number;

  @Field(() => [PlanQuoteLine])
  lines!: PlanQuoteLine[];
}

@ObjectType({
  description:
    'A checkpoint as a card: what the task asks you (approve a call, answer a question, review a stage, approve the plan budget), open until you resolve it with `resolveCheckpoint`.',
})
export class CheckpointCard {
  @Field(() => ID)
  checkpointId!: string;

  @Field(() => ID)
  taskId!: string;

  @Field(() => CheckpointKind)
  kind!: string;

  @Field(() => String)
  question!: string;

  @Field(() => ID, { nullable: true, description: 'REVIEW: the checklist item it is about.' })
  itemId!: string | null;

  @Field(() => ID, { nullable: true, description: 'APPROVAL: the one tool call an approval authorizes.' })
  callId!: string | null;

  @Field(() => [CheckpointOption], { description: 'What you may CHOOSE between; empty when there is no choice.' })
  options!: CheckpointOption[];

  @Field(() => CallQuote, { nullable: true, description: 'APPROVAL of a paid call: its price.' })
  callQuote!: CallQuote | null;

  @Field(() => PlanQuote, { nullable: true, description: "BUDGET: the plan's paid items and their total." })
  planQuote!: PlanQuote | null;

  @Field(() => String)
  openedAt!: string;

  @Field(() => CheckpointResolution, { nullable: true, description: 'Null while the card is open.' })
  resolution!: CheckpointResolution | null;
}

@ObjectType({ description: "One approval of money for the task's plan: by whom, when and through which card." })
export class PlanBudgetApproval {
  @Field(() => ID)
  budgetId!: string;

  @Field(() => Int)
  amountMinor!: number;

  @Field(() => ID, { description: 'The user who approved it.' })
  approvedBy!: string;

  @Field(() => String, { nullable: true })
  approvedAt!: string | null;

  @Field(() => ID, {
    nullable: true,
    description: 'The BUDGET card it was approved through; null when approved with approvePlanBudget.',
  })
  checkpointId!: string | null;
}

@ObjectType({ description: "Money for the task's plan in one currency." })
export class PlanBudget {
  @Field(() => String, { description: 'ISO 4217 code.' })
  currency!: string;

  @Field(() => Int, {
    description: 'The sum of the plan budgets you approved for this task (approvePlanBudget, BUDGET cards).',
  })
  approvedMinor!: number;

  @Field(() => Int, { description: "Charged minus refunded for this task's generation jobs." })
  spentMinor!: number;

  @Field(() => [PlanBudgetApproval], { description: 'Each approval in this currency, oldest first.' })
  approvals!: PlanBudgetApproval[];
}

@ObjectType({
  description:
    "What an operator's fork was copied from (`lomo task fork`): its tools do nothing until an operator arms them.",
})
export class TaskFork {
  @Field(() => ID, { description: 'The task it was copied from, which the fork left untouched.' })
  taskId!: string;

  @Field(() => Int, { description: "The last revision of the source task's stream the fork copied." })
  revision!: number;

  @Field(() => String, { description: 'The global position it was cut at (opaque).' })
  position!: string;

  @Field(() => [String], {
    description: 'The tools an operator armed (["all"]: every tool); calls to any other are answered as stubbed.',
  })
  armedTools!: string[];
}

@ObjectType({ description: 'A piece of work: created by routing, run in turns, fed by its inbox.' })
export class Task {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  goal!: string | null;

  @Field(() => TaskKind, { nullable: true })
  kind!: string | null;

  @Field(() => String, { nullable: true, description: 'Where the task stands, kept current after each turn.' })
  summary!: string | null;

  @Field(() => ID, { nullable: true, description: 'The task this one was merged into (it is archived).' })
  mergedInto!: string | null;

  @Field(() => TaskFork, { nullable: true, description: "Set on an operator's fork: what it was copied from." })
  forkOf!: TaskFork | null;

  @Field(() => TaskStatus, { nullable: true })
  status!: string | null;

  @Field(() => String, { nullable: true })
  language!: string | null;

  @Field(() => ID, { nullable: true })
  originMessageId!: string | null;

  @Field(() => String, { nullable: true })
  createdAt!: string | null;

  @Field(() => String, { nullable: true })
  lastActivityAt!: string | null;

  @Field(() => ID, { nullable: true })
  activeTurnId!: string | null;

  @Field(() => ActiveTurnSummary, { nullable: true })
  activeTurnSummary!: ActiveTurnSummary | null;

  @Field(() => Int)
  openCheckpoints!: number;

  @Field(() => ContinuationDecision, { nullable: true })
  lastContinuation!: ContinuationDecision | null;

  @Field(() => TaskBrief, { nullable: true, description: 'Null until a brief is written.' })
  brief!: TaskBrief | null;

  @Field(() => [ChecklistItem], { description: 'The plan, in order; empty until one is made.' })
  checklist!: ChecklistItem[];

  @Field(() => AutonomyLevel)
  autonomy!: string;

  @Field(() => [CheckpointCard], { description: 'The open checkpoint cards, oldest first: what waits for you.' })
  pendingCheckpoints!: CheckpointCard[];

  /** Every card, for `checkpoints(state)` (a field resolver filters them). */
  allCheckpoints!: CheckpointCard[];

  /** Approved plan budgets per currency, for `planBudget` (a field resolver adds what was spent). */
  approvedBudgets!: Array<{ currency: string; approvedMinor: number; approvals: PlanBudgetApproval[] }>;

  @Field(() => TaskCounts)
  counts!: TaskCounts;
}

export const TaskConnection = Connection('Task', Task);

@ObjectType({ description: 'A turn and step.' })
export class StepRef {
  @Field(() => ID)
  turnId!: string;

  @Field(() => Int)
  step!: number;
}

@ObjectType({ description: 'Where a moved message went.' })
export class MovedTo {
  @Field(() => ID)
  taskId!: string;

  @Field(() => Boolean, { description: 'Read here already: it stayed here as history and the task got a copy.' })
  consumed!: boolean;
}

@ObjectType({ description: 'Where a moved or merged message came from.' })
export class MovedFrom {
  @Field(() => ID)
  taskId!: string;

  @Field(() => String)
  note!: string;

  @Field(() => Boolean)
  consumedThere!: boolean;
}

@ObjectType({ description: "A message in a task's inbox, waiting for (or read by) a step." })
export class InboxItem {
  @Field(() => ID, { description: 'The item id, which is the message id.' })
  id!: string;

  @Field(() => ID, { nullable: true })
  taskId!: string | null;

  @Field(() => ID, { nullable: true })
  messageId!: string | null;

  @Field(() => String, { nullable: true })
  text!: string | null;

  @Field(() => String, { nullable: true })
  language!: string | null;

  @Field(() => InboxItemStatus, { nullable: true })
  status!: string | null;

  @Field(() => StepRef, { nullable: true, description: 'The step holding the claim; null unless claimed.' })
  claimedAt!: StepRef | null;

  @Field(() => StepRef, { nullable: true, description: 'The committed step that read the item.' })
  consumedAt!: StepRef | null;

  @Field(() => Int)
  replacements!: number;

  @Field(() => MovedTo, { nullable: true, description: 'Set once the person moved it to another task.' })
  movedTo!: MovedTo | null;

  @Field(() => MovedFrom, { nullable: true, description: 'Set when it was moved or merged here.' })
  movedFrom!: MovedFrom | null;

  @Field(() => String, { nullable: true })
  deliveredAt!: string | null;

  @Field(() => String, { nullable: true })
  updatedAt!: string | null;
}

export const InboxItemConnection = Connection('InboxItem', InboxItem);
