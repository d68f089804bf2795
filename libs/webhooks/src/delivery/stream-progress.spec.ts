import { delivered, isIdle, isReady, observe, skipTo } from './stream-progress';

const at = (streamId: string, revision: number) => ({ streamId, revision });
const now = new Date('2026-11-30T12:00:00.000Z');

describe('stream progress', () => {
  it('a first sight starts just before the observed revision; later sights raise the target', () => {
    const first = observe(undefined, 'w', at('task-1', 4), 0).state;
    expect(first).toMatchObject({ doneRevision: 3, targetRevision: 4, epoch: 0 });
    expect(isReady(first, now)).toBe(true);
    expect(observe(first, 'w', at('task-1', 7), 0).state).toMatchObject({ doneRevision: 3, targetRevision: 7 });
  });

  it('a replay (newer epoch) rebases back, and supersedes a dead letter at or after the replayed revision', () => {
    const blocked = {
      ...observe(undefined, 'w', at('task-1', 5), 0).state,
      blocked: { deadLetterId: 'd', revision: 5 },
    };
    expect(observe(blocked, 'w', at('task-1', 2), 1)).toMatchObject({
      state: { doneRevision: 1, blocked: null, epoch: 1 },
      superseded: 'd',
    });
    // A dead letter before the replayed part keeps blocking: its event was never delivered.
    expect(observe(blocked, 'w', at('task-1', 6), 1)).toMatchObject({
      state: { doneRevision: 4, blocked: { deadLetterId: 'd' } },
      superseded: null,
    });
  });

  it('a redelivery resolves its dead letter once delivery passes its revision; skip moves past it', () => {
    const redelivering = {
      ...observe(undefined, 'w', at('task-1', 3), 0).state,
      redelivering: { deadLetterId: 'd', revision: 3 },
    };
    expect(delivered(redelivering, 3)).toMatchObject({ resolved: 'd', state: { redelivering: null, doneRevision: 3 } });
    expect(isIdle(delivered(redelivering, 3).state)).toBe(true);
    const blocked = { ...redelivering, redelivering: null, blocked: { deadLetterId: 'd', revision: 3 } };
    expect(isReady(blocked, now)).toBe(false);
    expect(skipTo(blocked, 'd', 3)).toMatchObject({ doneRevision: 3, blocked: null });
  });

  it('waits for notBefore', () => {
    const state = { ...observe(undefined, 'w', at('task-1', 0), 0).state, notBefore: '2026-11-30T12:00:01.000Z' };
    expect(isReady(state, now)).toBe(false);
    expect(isReady(state, new Date('2026-11-30T12:00:01.000Z'))).toBe(true);
  });
});
