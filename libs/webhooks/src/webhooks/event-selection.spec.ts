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
});
