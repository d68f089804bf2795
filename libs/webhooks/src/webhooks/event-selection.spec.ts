import type { EventEnvelope } from '@lomo/contracts';
import { EventSelection, eventTypeProblem } from './event-selection';

const event = (type: string, streamId: string, workspaceId: string) =>
  ({ type, data: {}, metadata: { streamId, workspaceId } }) as unknown as EventEnvelope;

describe('event selection', () => {
  it('accepts registered types and stream categories only', () => {
    expect(eventTypeProblem('TaskCreated')).toBeUndefined();
    expect(eventTypeProblem('turn')).toBeUndefined();
    expect(eventTypeProblem('TurnLeaseExtended')).toMatch(/neither/);
  });

  it('filters in the store by types, by (workspace-keyed) prefixes, or by the prefixes of a mix', () => {
    expect(new EventSelection('ws', ['TaskCreated']).storeFilter()).toEqual({ eventTypes: ['TaskCreated'] });
    expect(new EventSelection('ws', ['main', 'task']).storeFilter()).toEqual({ streamPrefixes: ['main-ws.', 'task-'] });
    expect(new EventSelection('ws', ['turn', 'TaskCreated']).storeFilter()).toEqual({
      streamPrefixes: ['turn-', 'task-'],
    });
  });

  it("matches only its workspace's events of a selected type or category", () => {
    const selection = new EventSelection('ws', ['turn', 'TaskCreated']);
    expect(selection.matches(event('TaskCreated', 'task-1', 'ws'))).toBe(true);
    expect(selection.matches(event('TurnStarted', 'turn-1', 'ws'))).toBe(true);
    expect(selection.matches(event('TaskPaused', 'task-1', 'ws'))).toBe(false);
    expect(selection.matches(event('TaskCreated', 'task-1', 'other'))).toBe(false);
  });

  it("delivers a person's main line only to that person's webhooks; registrant-less ones get shared streams only", () => {
    const mine = new EventSelection('ws', ['main', 'task'], { tokenId: 't1', userId: 'u1', kind: 'person' });
    const theirs = new EventSelection('ws', ['main', 'task'], { tokenId: 't2', userId: 'u2', kind: 'person' });
    const legacy = new EventSelection('ws', ['main', 'task']);
    const integration = new EventSelection('ws', ['main', 'task'], {
      tokenId: 't3',
      userId: 'ci',
      kind: 'integration',
    });
    const u1Message = event('UserMessageReceived', 'main-ws.u1', 'ws');
    expect([mine, theirs, legacy, integration].map((s) => s.matches(u1Message))).toEqual([true, false, false, false]);
    expect([mine, theirs, legacy, integration].map((s) => s.matches(event('TaskCreated', 'task-1', 'ws')))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    // An integration receives the exposed lifecycle types only.
    expect(integration.matches(event('BriefUpdated', 'task-1', 'ws'))).toBe(false);
    expect(mine.matches(event('BriefUpdated', 'task-1', 'ws'))).toBe(true);
  });
});
