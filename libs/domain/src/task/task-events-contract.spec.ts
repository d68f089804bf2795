import fc from 'fast-check';
import { checkDecidedEvents, commandArbitraries, expectEventTypesOfCategory } from '@lomo/testing';
import { taskDecider } from './task-decider';
import type {
  AcceptMerge,
  MergeInto,
  MoveMessageOut,
  UpdateTaskSummary,
  ApprovePlanBudget,
  ArchiveTask,
  ChangeAutonomy,
  ChangeChecklistItem,
  ClaimInboxItems,
  CloseTurn,
  CompleteTask,
  CreateTask,
  DeliverMessage,
  NoticeArtifactChange,
  OpenCheckpoint,
  OpenTurn,
  PauseTask,
  PlanChecklist,
  RecordContinuation,
  ReleaseClaims,
  ReplaceInboxItem,
  ResolveCheckpoint,
  ResumeTask,
  StopTask,
  TaskCommand,
  UpdateBrief,
  UpgradeTask,
  WithdrawInboxItem,
} from './task-commands';
import { taskEventTypes } from './task-events';
import type { TaskState } from './task-state';
import { callOf, ids, person, system } from './task.fixtures';

// Random command sequences over a small pool of ids, so the commands collide often: every event
// the decider produces must parse with its contract schema, and the inbox invariants must hold
// after every step, whatever the order.
const turns = [ids.turn1, ids.turn2];
const items = [ids.item1, ids.item2, ids.item3];
const checkpoints = [ids.checkpoint, ids.checkpoint2];
const calls = [callOf(ids.turn1, 1, 0), callOf(ids.turn1, 2, 0), callOf(ids.turn2, 1, 0)];
const step = fc.integer({ min: 1, max: 3 });
const actor = fc.constantFrom(person, system);

const { cmd, weighted } = commandArbitraries<TaskCommand>();

// Final commands (stop, complete, archive) are rare so that sequences get far enough to claim.
const create = cmd<CreateTask>({
  type: fc.constant('CreateTask'),
  taskId: fc.constant(ids.task),
  kind: fc.constantFrom('lightweight', 'persistent'),
  goal: fc.constant('Design a poster'),
  language: fc.constantFrom('en', 'zh-Hans'),
  originMessageId: fc.constant(ids.origin),
});

const command: fc.Arbitrary<TaskCommand> = fc.oneof(
  weighted(1, create),
  weighted(
    6,
    cmd<DeliverMessage>({
      type: fc.constant('DeliverMessage'),
      itemId: fc.constantFrom(...items),
      text: fc.constantFrom('hello', 'a blue one'),
      language: fc.constant('en'),
    }),
  ),
  weighted(
    2,
    cmd<WithdrawInboxItem>({
      type: fc.constant('WithdrawInboxItem'),
      itemId: fc.constantFrom(...items),
      by: fc.constant('u1'),
    }),
  ),
  weighted(
    2,
    cmd<ReplaceInboxItem>({
      type: fc.constant('ReplaceInboxItem'),
      itemId: fc.constantFrom(...items),
      text: fc.constantFrom('red', 'green'),
      language: fc.constant('en'),
      by: fc.constant('u1'),
    }),
  ),
  weighted(8, cmd<ClaimInboxItems>({ type: fc.constant('ClaimInboxItems'), turnId: fc.constantFrom(...turns), step })),
  weighted(
    4,
    cmd<ReleaseClaims>({
      type: fc.constant('ReleaseClaims'),
      turnId: fc.constantFrom(...turns),
      step,
      reason: fc.constantFrom('turn_cancelled', 'turn_failed', 'step_abandoned'),
    }),
  ),
  weighted(
    6,
    cmd<OpenTurn>({
      type: fc.constant('OpenTurn'),
      turnId: fc.constantFrom(...turns),
      reason: fc.constantFrom('message', 'watchdog', 'continuation'),
    }),
  ),
  weighted(
    3,
    cmd<CloseTurn>({
      type: fc.constant('CloseTurn'),
      turnId: fc.constantFrom(...turns),
      outcome: fc.constantFrom('completed', 'cancelled'),
    }),
  ),
  weighted(
    3,
    cmd<RecordContinuation>({
      type: fc.constant('RecordContinuation'),
      turnId: fc.constantFrom(...turns),
      decision: fc.constantFrom('continue', 'finish', 'await_person', 'stop'),
      reason: fc.constantFrom('pending_items', 'no_plan', 'no_progress'),
      progress: fc.subarray(['artifact_version', 'item_done', 'job_submitted', 'person_input'] as const),
      autoTurns: fc.integer({ min: 0, max: 5 }),
      turnsWithoutProgress: fc.integer({ min: 0, max: 5 }),
      itemsDone: fc.integer({ min: 0, max: 5 }),
    }),
  ),
  weighted(
    3,
    cmd<OpenCheckpoint>({
      type: fc.constant('OpenCheckpoint'),
      checkpointId: fc.constantFrom(...checkpoints),
      turnId: fc.constantFrom(...turns),
      kind: fc.constantFrom('approval', 'question'),
      callId: fc.constantFrom(...calls),
      question: fc.constant('May I?'),
    }),
  ),
  weighted(
    4,
    cmd<ResolveCheckpoint>({
      type: fc.constant('ResolveCheckpoint'),
      checkpointId: fc.constantFrom(...checkpoints),
      decision: fc.constantFrom('approve', 'reject', 'answer'),
      callId: fc.constantFrom(...calls),
      answer: fc.constant('yes'),
      resolvedBy: fc.constant('u1'),
    }),
  ),
  weighted(1, cmd<PauseTask>({ type: fc.constant('PauseTask'), by: actor })),
  weighted(2, cmd<ResumeTask>({ type: fc.constant('ResumeTask'), by: actor })),
  weighted(1, cmd<StopTask>({ type: fc.constant('StopTask'), by: actor, cancelledTurnId: fc.constantFrom(...turns) })),
  weighted(1, cmd<CompleteTask>({ type: fc.constant('CompleteTask') })),
  weighted(1, cmd<ArchiveTask>({ type: fc.constant('ArchiveTask'), by: actor })),
  weighted(
    1,
    cmd<ChangeAutonomy>({
      type: fc.constant('ChangeAutonomy'),
      level: fc.constantFrom('manual', 'autonomous'),
      by: fc.constant('u1'),
    }),
  ),
  weighted(1, cmd<UpgradeTask>({ type: fc.constant('UpgradeTask'), reason: fc.constant('bigger'), by: actor })),
  weighted(
    2,
    cmd<UpdateTaskSummary>({
      type: fc.constant('UpdateTaskSummary'),
      summary: fc.constantFrom('Poster: drafting', 'Poster: blue version sent'),
      turnId: fc.constantFrom(...turns),
      by: actor,
    }),
  ),
  weighted(
    2,
    cmd<MoveMessageOut>({
      type: fc.constant('MoveMessageOut'),
      itemId: fc.constantFrom(...items),
      toTaskId: fc.constantFrom(ids.otherTask, ids.thirdTask),
      by: fc.constant('u1'),
      claimCommitted: fc.boolean(),
    }),
  ),
  weighted(
    2,
    cmd<DeliverMessage>({
      type: fc.constant('DeliverMessage'),
      itemId: fc.constantFrom(...items),
      text: fc.constant('moved here'),
      language: fc.constant('en'),
      movedFrom: fc.constant({ taskId: ids.otherTask, note: 'moved', consumedThere: false }),
    }),
  ),
  weighted(
    1,
    cmd<MergeInto>({ type: fc.constant('MergeInto'), targetTaskId: fc.constant(ids.otherTask), by: fc.constant('u1') }),
  ),
  weighted(
    1,
    cmd<AcceptMerge>({
      type: fc.constant('AcceptMerge'),
      sourceTaskId: fc.constantFrom(ids.otherTask, ids.thirdTask),
      items: fc.constant([{ itemId: ids.item3, text: 'from the merged task', language: 'en' }]),
      by: fc.constant('u1'),
    }),
  ),
  weighted(1, cmd<UpdateBrief>({ type: fc.constant('UpdateBrief'), brief: fc.constantFrom('A3', 'A4'), by: actor })),
  weighted(
    1,
    cmd<PlanChecklist>({
      type: fc.constant('PlanChecklist'),
      items: fc.constant([{ itemId: 'draft', title: 'Draft', dependsOn: [] }]),
    }),
  ),
  weighted(
    1,
    cmd<ChangeChecklistItem>({
      type: fc.constant('ChangeChecklistItem'),
      itemId: fc.constant('draft'),
      status: fc.constantFrom('in_progress', 'done'),
    }),
  ),
  weighted(
    1,
    cmd<ApprovePlanBudget>({
      type: fc.constant('ApprovePlanBudget'),
      budgetId: fc.constant(ids.checkpoint),
      amountMinor: fc.constant(500),
      currency: fc.constant('EUR'),
      approvedBy: fc.constant('u1'),
    }),
  ),
  weighted(
    1,
    cmd<NoticeArtifactChange>({
      type: fc.constant('NoticeArtifactChange'),
      noticeId: fc.constantFrom(ids.item1, ids.item2),
      artifactId: fc.constant(ids.item3),
      fromVersion: fc.integer({ min: 0, max: 2 }),
      toVersion: fc.integer({ min: 3, max: 5 }),
      by: fc.constant({ kind: 'person' as const, userId: 'u1' }),
      nodes: fc.subarray(['n1', 'n2']),
      summary: fc.constantFrom('', 'node n1 params'),
    }),
  ),
  weighted(
    1,
    cmd<TaskCommand>({
      type: fc.constant('LoadToolDomains'),
      domains: fc.subarray(['image', 'video', 'asset'] as const, { minLength: 1 }),
      turnId: fc.constantFrom(...turns),
      step,
    } as never),
  ),
  weighted(
    1,
    cmd<TaskCommand>({
      type: fc.constant('UnloadToolDomains'),
      domains: fc.subarray(['image', 'video', 'asset'] as const, { minLength: 1 }),
    } as never),
  ),
  weighted(
    1,
    cmd<TaskCommand>({
      type: fc.constant('AppendHistorySegment'),
      segmentId: fc.constantFrom(ids.item1, ids.item2, ids.item3),
      covers: fc.constant({ from: { turnId: ids.turn1, step: 1 }, to: { turnId: ids.turn1, step: 2 }, steps: 2 }),
      text: fc.constant({ hash: 'a'.repeat(64), bytes: 10, contentType: 'text/plain' }),
      tokens: fc.constant(5),
      summarizer: fc.constant('extractive'),
      supersedes: fc.subarray([ids.item1, ids.item2]),
    } as never),
  ),
  weighted(
    1,
    cmd<TaskCommand>({
      type: fc.constant('ExcludeHistorySegments'),
      segmentIds: fc.subarray([ids.item1, ids.item2, ids.item3], { minLength: 1 }),
      reason: fc.constantFrom('correction', 'forgotten'),
    } as never),
  ),
  weighted(
    1,
    cmd<TaskCommand>({
      type: fc.constant('ExcludeContext'),
      forgettingId: fc.constantFrom(ids.checkpoint, ids.checkpoint2),
      messageIds: fc.subarray(items),
      steps: fc.array(fc.record({ turnId: fc.constantFrom(...turns), step }), { maxLength: 3 }),
    } as never),
  ),
  weighted(
    1,
    cmd<TaskCommand>({
      type: fc.constant('NoteConstraints'),
      itemId: fc.constantFrom(...items),
      turnId: fc.constantFrom(...turns),
      step,
      constraints: fc.constant([
        { constraintId: ids.checkpoint2, subject: 'background', statement: 'The background is white' },
      ]),
    } as never),
  ),
  weighted(
    1,
    cmd<TaskCommand>({
      type: fc.constant('RecordFork'),
      sourceTaskId: fc.constant(ids.otherTask),
      sourceRevision: fc.nat({ max: 20 }),
      sourcePosition: fc.constantFrom('12', '40'),
      turns: fc.constant([]),
      by: fc.constant('ops'),
    } as never),
  ),
  weighted(
    1,
    cmd<TaskCommand>({
      type: fc.constant('ArmTools'),
      tools: fc.oneof(fc.constant('all'), fc.subarray(['notes.create', 'notes.list'], { minLength: 1 })),
      by: fc.constant('ops'),
    } as never),
  ),
);

function assertInboxInvariants(state: TaskState): void {
  if (state.status === 'none') return;
  const standing = Object.values(state.claims).filter((c) => !c.released);
  const claimedIds = standing.flatMap((c) => c.itemIds);
  // One standing claim per item, and only claimed items are in one.
  expect(new Set(claimedIds).size).toBe(claimedIds.length);
  for (const item of Object.values(state.inbox)) {
    expect(item.status === 'claimed').toBe(claimedIds.includes(item.itemId));
  }
}

describe('task decider: every decided event matches its contract', () => {
  it('lists exactly the task-stream events of the registry', () => {
    expectEventTypesOfCategory('task', taskEventTypes);
  });

  it('random command sequences produce only valid events and keep the inbox invariants', () => {
    checkDecidedEvents({
      decider: taskDecider,
      eventTypes: taskEventTypes,
      first: create,
      command,
      afterCommand: assertInboxInvariants,
      run: { numRuns: 400, seed: 1 },
    });
  });
});
