import { decodeConsistencyToken } from '../../consistency/consistency-token';
import { isNewer, tokenOfRevisions } from './revisions';

describe('document revisions', () => {
  it('orders states of one document: later only when no stream went back and one moved on', () => {
    expect(isNewer(undefined, { 'task-a': 0 })).toBe(true);
    expect(isNewer({ 'task-a': 3 }, { 'task-a': 4 })).toBe(true);
    expect(isNewer({ 'task-a': 3 }, { 'task-a': 3, 'turn-b': 0 })).toBe(true);
    expect(isNewer({ 'task-a': 3, 'turn-b': 1 }, { 'task-a': 3, 'turn-b': 1 })).toBe(false);
    expect(isNewer({ 'task-a': 3, 'turn-b': 1 }, { 'task-a': 4, 'turn-b': 0 })).toBe(false);
    expect(isNewer({ 'task-a': 3, 'turn-b': 1 }, { 'task-a': 4 })).toBe(false);
  });

  it('names every stream in the token, and beyond the token limit keeps the own stream and what moved', () => {
    const few = { 'task-a': 2, 'turn-b': 5 };
    expect(decodeConsistencyToken(tokenOfRevisions(few, 'task-a'))).toEqual([
      { streamId: 'task-a', revision: 2 },
      { streamId: 'turn-b', revision: 5 },
    ]);
    const many: Record<string, number> = { 'task-a': 40 };
    for (let i = 0; i < 40; i += 1) many[`turn-t${i}`] = 6;
    const previous = { ...many, 'task-a': 39, 'turn-t39': 5 };
    const pairs = decodeConsistencyToken(tokenOfRevisions(many, 'task-a', previous));
    expect(pairs).toHaveLength(32);
    expect(pairs.slice(0, 2)).toEqual([
      { streamId: 'task-a', revision: 40 },
      { streamId: 'turn-t39', revision: 6 },
    ]);
  });
});
