import { deciderSpec } from '@lomo/testing';
import { fold } from '../decider';
import { briefForContext, checklistTitleLeftOut } from './task-queries';
import { taskDecider } from './task-decider';
import { activeWithInbox, ids } from './task.fixtures';
import type { TaskEvent } from './task-events';
import type { ExistingTask } from './task-state';

// What a task keeps for its context (article §6): loaded tool domains, append-only history
// segments, the person's constraints. Every repeat is a no-op.

const { given } = deciderSpec(taskDecider);
const SEG_A = '0a0a0a0a-0000-4000-8000-00000000000a';
const SEG_B = '0b0b0b0b-0000-4000-8000-00000000000b';
const C1 = '0c0c0c0c-0000-4000-8000-00000000000c';
const C2 = '0d0d0d0d-0000-4000-8000-00000000000d';
const text = (c: string) => ({ hash: c.repeat(64), bytes: 10, contentType: 'text/plain' });
const covers = (from: number, to: number) => ({
  from: { turnId: ids.turn1, step: from },
  to: { turnId: ids.turn1, step: to },
  steps: to - from + 1,
});
const segment = (segmentId: string, hash: string, supersedes: string[] = []): TaskEvent => ({
  type: 'HistorySegmentAppended',
  data: { segmentId, covers: covers(1, 5), text: text(hash), tokens: 30, summarizer: 'extractive', supersedes },
});
const append = (segmentId: string, hash: string, supersedes: string[] = []) => ({
  type: 'AppendHistorySegment' as const,
  segmentId,
  covers: covers(1, 5),
  text: text(hash),
  tokens: 30,
  summarizer: 'extractive' as const,
  supersedes,
});
const state = (events: TaskEvent[]) => fold(taskDecider, events) as ExistingTask;

describe('task: context', () => {
  it('records a forgetting’s exclusions once: a repeat of the same forgetting decides nothing', () => {
    const exclude = {
      type: 'ExcludeContext' as const,
      forgettingId: C1,
      messageIds: [ids.item1],
      steps: [{ turnId: ids.turn1, step: 2 }],
    };
    const excluded: TaskEvent = {
      type: 'ContextExcluded',
      data: { forgettingId: C1, messageIds: [ids.item1], steps: [{ turnId: ids.turn1, step: 2 }] },
    };
    given(activeWithInbox()).when(exclude).then([excluded]);
    given([...activeWithInbox(), excluded])
      .when(exclude)
      .then([]);
    const after = state([...activeWithInbox(), excluded]);
    expect(after.excluded).toEqual({
      messageIds: [ids.item1],
      steps: [`${ids.turn1}:2`],
      calls: [],
      forgettings: [C1],
    });
  });

  it('a brief the agent wrote records its tool call, and a forgetting that names the call leaves it out until a new one', () => {
    const agent = { kind: 'agent' as const };
    const written: TaskEvent = {
      type: 'BriefUpdated',
      data: { version: 1, brief: 'Spring posters, cobalt background', by: agent, callId: 'call_brief_1' },
    };
    given(activeWithInbox())
      .when({ type: 'UpdateBrief', brief: 'Spring posters, cobalt background', by: agent, callId: 'call_brief_1' })
      .then([written]);
    const excluded: TaskEvent = {
      type: 'ContextExcluded',
      data: {
        forgettingId: C1,
        messageIds: [ids.item1],
        steps: [{ turnId: ids.turn1, step: 2 }],
        calls: ['call_brief_1'],
      },
    };
    given([...activeWithInbox(), written])
      .when({
        type: 'ExcludeContext',
        forgettingId: C1,
        messageIds: [ids.item1],
        steps: [{ turnId: ids.turn1, step: 2 }],
        calls: ['call_brief_1'],
      })
      .then([excluded]);
    expect(briefForContext(state([...activeWithInbox(), written, excluded]))).toEqual({ version: 1, leftOut: true });
    // A new version, written from what is left, is shown again.
    const rewritten: TaskEvent = {
      type: 'BriefUpdated',
      data: { version: 2, brief: 'Spring posters, soft palette', by: agent, callId: 'call_brief_2' },
    };
    expect(briefForContext(state([...activeWithInbox(), written, excluded, rewritten]))).toEqual({
      version: 2,
      text: 'Spring posters, soft palette',
    });
    // Without a forgetting naming it, the brief is shown as written.
    expect(briefForContext(state([...activeWithInbox(), written]))).toEqual({
      version: 1,
      text: 'Spring posters, cobalt background',
    });
  });

  it('a checklist the agent planned records its tool call; a forgetting that names it leaves the titles out, a re-plan brings them back', () => {
    const items = [{ itemId: 'palette', title: 'Cobalt palette board', dependsOn: [] }];
    const planned: TaskEvent = { type: 'ChecklistPlanned', data: { items, callId: 'call_plan_1' } };
    given(activeWithInbox()).when({ type: 'PlanChecklist', items, callId: 'call_plan_1' }).then([planned]);
    const excluded: TaskEvent = {
      type: 'ContextExcluded',
      data: { forgettingId: C1, messageIds: [], steps: [{ turnId: ids.turn1, step: 2 }], calls: ['call_plan_1'] },
    };
    const after = state([...activeWithInbox(), planned, excluded]);
    expect(checklistTitleLeftOut(after, after.checklist[0])).toBe(true);
    // The person's own re-plan (no call) and a later call's plan are shown.
    const byPerson: TaskEvent = {
      type: 'ChecklistPlanned',
      data: { items: [{ itemId: 'palette', title: 'Soft palette board', dependsOn: [] }] },
    };
    const replanned = state([...activeWithInbox(), planned, excluded, byPerson]);
    expect(checklistTitleLeftOut(replanned, replanned.checklist[0])).toBe(false);
  });

  it('loads only domains not loaded yet, and unloads only loaded ones', () => {
    given(activeWithInbox())
      .when({ type: 'LoadToolDomains', domains: ['image', 'image'], turnId: ids.turn1, step: 2 })
      .then([{ type: 'ToolDomainsLoaded', data: { domains: ['image'], turnId: ids.turn1, step: 2 } }]);
    const loaded: TaskEvent = { type: 'ToolDomainsLoaded', data: { domains: ['image'], turnId: ids.turn1, step: 2 } };
    given([...activeWithInbox(), loaded])
      .when({ type: 'LoadToolDomains', domains: ['image'], turnId: ids.turn1, step: 3 })
      .then([]);
    given([...activeWithInbox(), loaded])
      .when({ type: 'UnloadToolDomains', domains: ['image', 'video'] })
      .then([{ type: 'ToolDomainsUnloaded', data: { domains: ['image'], reason: 'compression' } }]);
  });

  it('a segment is written once: the same again is a no-op, other text under its id a conflict', () => {
    given(activeWithInbox())
      .when(append(SEG_A, 'a'))
      .then([segment(SEG_A, 'a')]);
    given([...activeWithInbox(), segment(SEG_A, 'a')])
      .when(append(SEG_A, 'a'))
      .then([]);
    given([...activeWithInbox(), segment(SEG_A, 'a')])
      .when(append(SEG_A, 'b'))
      .thenThrows('SEGMENT_CONFLICT');
  });

  it('a new segment supersedes shown ones only; the superseded stays in the log, marked', () => {
    const events = [...activeWithInbox(), segment(SEG_A, 'a'), segment(SEG_B, 'b', [SEG_A])];
    expect(state(events).segments.map((s) => [s.segmentId, s.supersededBy])).toEqual([
      [SEG_A, SEG_B],
      [SEG_B, null],
    ]);
    given(events)
      .when(append(C1, 'c', [SEG_A]))
      .thenThrows('SEGMENT_CONFLICT');
    given(events)
      .when({ type: 'ExcludeHistorySegments', segmentIds: [SEG_B], reason: 'forgotten' })
      .then([{ type: 'HistorySegmentsExcluded', data: { segmentIds: [SEG_B], reason: 'forgotten' } }]);
  });

  it('constraints are noted once per item; a replacing one withdraws the one in force', () => {
    const first: TaskEvent = {
      type: 'ConstraintsNoted',
      data: {
        itemId: ids.item1,
        turnId: ids.turn1,
        step: 1,
        constraints: [{ constraintId: C1, subject: 'background', statement: 'The background is white' }],
      },
    };
    const note = {
      type: 'NoteConstraints' as const,
      itemId: ids.item2,
      turnId: ids.turn1,
      step: 2,
      constraints: [{ constraintId: C2, subject: 'background', statement: 'Make it dark blue', replaces: C1 }],
    };
    const [second] = taskDecider.decide(note, state([...activeWithInbox(), first]));
    expect(state([...activeWithInbox(), first, second]).constraints[C1].withdrawnBy).toBe(C2);
    given([...activeWithInbox(), first, second])
      .when(note)
      .then([]);
    given([...activeWithInbox(), first, second])
      .when({ ...note, itemId: ids.item3, constraints: [{ ...note.constraints[0], constraintId: SEG_A }] })
      .thenThrows('INVALID_COMMAND');
  });
});
