import { Field, ID, Int, ObjectType } from '@nestjs/graphql';

/*
 * The GraphQL face of @lomo/operator's TaskInspection (libs/operator/src/inspect/inspection.types.ts),
 * the shape `lomo task inspect` prints: field for field, with free-form values (event details, tool
 * arguments and results, quotes, resolutions, step contexts) as JSON text (`...Json`), and
 * forgotten content as an InspectedText whose `purged` says so instead of the text.
 */

@ObjectType({
  description:
    'Text that may have been forgotten: either `text`, or `purged` true with the reason (the text is never shown then).',
})
export class InspectedText {
  @Field(() => String, { nullable: true, description: 'The text; null when purged.' })
  text!: string | null;

  @Field(() => Boolean)
  purged!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Why it is gone (a forgetting, a deleted blob); null unless purged.',
  })
  purgedReason!: string | null;
}

@ObjectType({ description: 'One event of an inspection timeline, in global order: what happened, never its content.' })
export class InspectedTimelineEntry {
  @Field(() => String, { description: 'The event store position (opaque, ordered).' })
  position!: string;

  @Field(() => String)
  streamId!: string;

  @Field(() => Int)
  revision!: number;

  @Field(() => String)
  occurredAt!: string;

  @Field(() => String, { description: 'The event type, e.g. `ModelStepCommitted`.' })
  type!: string;

  @Field(() => String, {
    description:
      'routing, task, plan, inbox, turn, lease, step, tool, generation, money, checkpoint, continuation, memory, artifact or other.',
  })
  kind!: string;

  @Field(() => String, { description: 'One human line: what happened.' })
  summary!: string;

  @Field(() => String, { description: '`user:<id>`, `agent` or `system:<component>`.' })
  actor!: string;

  @Field(() => Int, { nullable: true, description: 'The execution generation of a runtime write; null otherwise.' })
  generation!: number | null;
}

@ObjectType({ description: 'A message delivered to a task inbox, and what became of it.' })
export class InspectedInboxItem {
  @Field(() => ID)
  itemId!: string;

  @Field(() => ID)
  messageId!: string;

  @Field(() => String, { nullable: true })
  from!: string | null;

  @Field(() => String)
  deliveredAt!: string;

  @Field(() => InspectedText)
  text!: InspectedText;

  @Field(() => String, { nullable: true, description: 'The step that consumed it (`turnId#step`); null otherwise.' })
  consumedBy!: string | null;

  @Field(() => String, { description: 'pending, claimed, consumed, withdrawn or replaced.' })
  state!: string;
}

@ObjectType({ description: 'One message of a prompt layer, as sent to the model.' })
export class InspectedPromptMessage {
  @Field(() => String, {
    nullable: true,
    description: 'system, user, assistant or tool; null if the message has none.',
  })
  role!: string | null;

  @Field(() => String, { nullable: true, description: 'Its text content; null when it holds none (tool calls only).' })
  content!: string | null;

  @Field(() => String, { description: 'The whole message as JSON text (tool calls, ids).' })
  json!: string;
}

@ObjectType({
  description: 'One layer of a prompt (PREFIX, HISTORY, RECENT, TAIL, INPUT) in the order the model read it.',
})
export class InspectedPromptLayer {
  @Field(() => String)
  layer!: string;

  @Field(() => Int)
  tokens!: number;

  @Field(() => [InspectedPromptMessage])
  messages!: InspectedPromptMessage[];
}

@ObjectType({ description: 'An archived prompt read back from the blob store: exactly what the model was sent.' })
export class InspectedPrompt {
  @Field(() => String, { nullable: true, description: 'The blob reference of the archive (JSON text).' })
  refJson!: string | null;

  @Field(() => InspectedText, { description: '`{messages, tools}` as sent, canonical JSON.' })
  canonicalJson!: InspectedText;

  @Field(() => [InspectedPromptLayer], { description: 'The layers; empty when the prompt was purged.' })
  layers!: InspectedPromptLayer[];

  @Field(() => Boolean, { description: 'Whether the layers were forgotten (then `layersPurgedReason` says why).' })
  layersPurged!: boolean;

  @Field(() => String, { nullable: true })
  layersPurgedReason!: string | null;

  @Field(() => [String], { description: 'Names of the tool definitions sent.' })
  tools!: string[];
}

@ObjectType({ description: 'A tool call the model asked for in a step.' })
export class InspectedToolCallIntent {
  @Field(() => ID)
  callId!: string;

  @Field(() => String)
  tool!: string;

  @Field(() => String, { description: 'The arguments as JSON text.' })
  argumentsJson!: string;
}

@ObjectType({ description: 'What a tool call did, from its ledger.' })
export class InspectedLedgerEntry {
  @Field(() => ID)
  callId!: string;

  @Field(() => String)
  tool!: string;

  @Field(() => String, { description: 'intended, started, completed, failed or outcome_unknown.' })
  status!: string;

  @Field(() => String, {
    description: 'The result or typed error as recorded, JSON text (large results by reference).',
  })
  resultJson!: string;

  @Field(() => String, { nullable: true })
  startedAt!: string | null;

  @Field(() => String, { nullable: true })
  finishedAt!: string | null;
}

@ObjectType()
export class InspectedUsage {
  @Field(() => Int)
  inputTokens!: number;

  @Field(() => Int)
  outputTokens!: number;
}

@ObjectType({ description: 'One committed model step of a turn: what it read, said, called, and what that did.' })
export class InspectedStep {
  @Field(() => ID)
  turnId!: string;

  @Field(() => Int)
  step!: number;

  @Field(() => String)
  committedAt!: string;

  @Field(() => Int, { nullable: true })
  generation!: number | null;

  @Field(() => [ID], { description: 'Inbox items this step consumed.' })
  consumedItemIds!: string[];

  @Field(() => [InspectedInboxItem])
  consumedInboxItems!: InspectedInboxItem[];

  @Field(() => InspectedText, { nullable: true, description: 'The reply, if the step gave one.' })
  reply!: InspectedText | null;

  @Field(() => [InspectedToolCallIntent])
  toolCallIntents!: InspectedToolCallIntent[];

  @Field(() => InspectedPrompt, {
    nullable: true,
    description: 'The archived prompt by layer; loaded only when the query asks `prompts: true`, null otherwise.',
  })
  prompt!: InspectedPrompt | null;

  @Field(() => String, { nullable: true, description: 'ModelStepCommitted.promptRef, JSON text.' })
  promptRefJson!: string | null;

  @Field(() => InspectedUsage, { nullable: true })
  usage!: InspectedUsage | null;

  @Field(() => String, {
    nullable: true,
    description: 'ModelStepCommitted.context (strategy, memory, tokens) as JSON text; null on old steps.',
  })
  contextJson!: string | null;

  @Field(() => [InspectedLedgerEntry])
  ledger!: InspectedLedgerEntry[];

  @Field(() => Boolean, { description: 'Whether a forgetting excluded this step from later contexts.' })
  excluded!: boolean;
}

@ObjectType({ description: 'A lease of a turn: which worker ran it under which generation.' })
export class InspectedLease {
  @Field(() => String)
  workerId!: string;

  @Field(() => Int)
  generation!: number;

  @Field(() => String)
  leaseUntil!: string;

  @Field(() => String)
  at!: string;

  @Field(() => Boolean, { description: 'A takeover: the generation rose, fencing off older ones.' })
  takeover!: boolean;
}

@ObjectType({ description: 'An event written with a generation older than the lease of the time: should never exist.' })
export class InspectedStaleWrite {
  @Field(() => Int)
  revision!: number;

  @Field(() => String)
  type!: string;

  @Field(() => Int)
  generation!: number;

  @Field(() => Int)
  leaseGeneration!: number;
}

@ObjectType({ description: 'A wait of a turn (a checkpoint, a generation job), as recorded.' })
export class InspectedWait {
  @Field(() => String)
  at!: string;

  @Field(() => String, { description: 'What it waited on, JSON text.' })
  onJson!: string;
}

@ObjectType({ description: "A turn's history from its stream: leases, steps, waits and timeline." })
export class InspectedTurn {
  @Field(() => ID)
  turnId!: string;

  @Field(() => ID)
  taskId!: string;

  @Field(() => ID)
  workspaceId!: string;

  @Field(() => String, { nullable: true })
  reason!: string | null;

  @Field(() => String)
  status!: string;

  @Field(() => String, { nullable: true })
  startedAt!: string | null;

  @Field(() => String, { nullable: true })
  endedAt!: string | null;

  @Field(() => [InspectedLease])
  leases!: InspectedLease[];

  @Field(() => [Int], { description: 'Generations fenced off by a takeover.' })
  fencedGenerations!: number[];

  @Field(() => [InspectedStaleWrite])
  staleWritesAccepted!: InspectedStaleWrite[];

  @Field(() => [InspectedStep])
  steps!: InspectedStep[];

  @Field(() => [InspectedWait])
  waits!: InspectedWait[];

  @Field(() => [InspectedTimelineEntry])
  timeline!: InspectedTimelineEntry[];
}

@ObjectType({ description: 'How the message that started the task was routed.' })
export class InspectedRouting {
  @Field(() => ID)
  messageId!: string;

  @Field(() => String)
  outcome!: string;

  @Field(() => String)
  method!: string;

  @Field(() => String, { description: 'The candidates the router weighed, JSON text.' })
  candidatesJson!: string;

  @Field(() => String)
  at!: string;
}

@ObjectType({ description: 'A generation job of the task and its money.' })
export class InspectedGenerationJob {
  @Field(() => ID)
  jobId!: string;

  @Field(() => String, { nullable: true })
  callId!: string | null;

  @Field(() => String, { nullable: true })
  provider!: string | null;

  @Field(() => String)
  status!: string;

  @Field(() => String, { description: 'The quote as recorded, JSON text.' })
  quoteJson!: string;

  @Field(() => Int)
  chargedMinor!: number;

  @Field(() => Int)
  refundedMinor!: number;

  @Field(() => String, { nullable: true })
  currency!: string | null;
}

@ObjectType({ description: 'A checkpoint of the task, open or resolved.' })
export class InspectedCheckpoint {
  @Field(() => ID)
  checkpointId!: string;

  @Field(() => String)
  kind!: string;

  @Field(() => String)
  openedAt!: string;

  @Field(() => String, { nullable: true, description: 'The resolution as JSON text; null while open.' })
  resolutionJson!: string | null;

  @Field(() => String, { nullable: true })
  resolvedAt!: string | null;
}

@ObjectType({ description: "The runtime's decision after a turn: continue, wait or stop." })
export class InspectedContinuation {
  @Field(() => String)
  at!: string;

  @Field(() => String)
  decision!: string;

  @Field(() => String)
  reason!: string;

  @Field(() => ID, { nullable: true })
  turnId!: string | null;
}

@ObjectType({
  description:
    'Everything the event log says about one task (the same data as `lomo task inspect`): routing, inbox, turns, steps, jobs, checkpoints and a timeline.',
})
export class TaskInspection {
  @Field(() => ID)
  taskId!: string;

  @Field(() => ID)
  workspaceId!: string;

  @Field(() => InspectedText)
  goal!: InspectedText;

  @Field(() => String)
  status!: string;

  @Field(() => InspectedRouting, { nullable: true })
  routing!: InspectedRouting | null;

  @Field(() => [InspectedInboxItem])
  inbox!: InspectedInboxItem[];

  @Field(() => [InspectedTurn])
  turns!: InspectedTurn[];

  @Field(() => [InspectedStep], { description: 'Every step of every turn, in order.' })
  steps!: InspectedStep[];

  @Field(() => [InspectedGenerationJob])
  generationJobs!: InspectedGenerationJob[];

  @Field(() => [InspectedCheckpoint])
  checkpoints!: InspectedCheckpoint[];

  @Field(() => [InspectedContinuation])
  continuations!: InspectedContinuation[];

  @Field(() => [InspectedTimelineEntry], { description: 'Every event of the task and its turns, in global order.' })
  timeline!: InspectedTimelineEntry[];

  @Field(() => String, {
    nullable: true,
    description:
      "An `eventFeed` cursor taken before the inspection was read: subscribe with `after` it (and the task's `workspaceId`) to follow the task live without a gap. Null on an empty store.",
  })
  feedCursor!: string | null;
}

@ObjectType({ description: 'A task found by an operator search, of any workspace.' })
export class OperatorTaskHit {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  workspaceId!: string;

  @Field(() => String, { nullable: true })
  goal!: string | null;

  @Field(() => String, { nullable: true })
  summary!: string | null;

  @Field(() => String, { nullable: true, description: 'active, waiting, paused, stopped, completed or archived.' })
  status!: string | null;

  @Field(() => String, { nullable: true, description: 'persistent or lightweight.' })
  kind!: string | null;

  @Field(() => String, { nullable: true })
  createdAt!: string | null;

  @Field(() => String, { nullable: true })
  lastActivityAt!: string | null;
}

@ObjectType({ description: 'Tasks an operator search found, most recent activity first.' })
export class OperatorTaskSearch {
  @Field(() => [OperatorTaskHit])
  tasks!: OperatorTaskHit[];

  @Field(() => Boolean, {
    description:
      'False when the search stopped at its scan bound before looking at every task: narrow it (a workspace, more words, an id).',
  })
  complete!: boolean;
}
