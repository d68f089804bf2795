import { memoryDecider } from './memory-decider';
import type { MemoryEvent } from './memory-events';
import { evolveMemory, foldMemory } from './memory-evolve';
import { dependencyIndex } from './memory-queries';
import { brandChain, confirmed, ids, requested } from './memory.fixtures';

/** A stream that creates, refines, confirms, forgets and purges: every record is written more than once. */
const stream = (): MemoryEvent[] => [
  ...brandChain(),
  requested([ids.m1]),
  confirmed(),
  { type: 'EvidenceRevoked', data: { forgettingId: ids.f1, evidenceIds: [ids.m1] } },
  { type: 'MemoryVersionPurged', data: { forgettingId: ids.f1, memoryId: ids.brand, versionId: ids.v1 } },
  { type: 'MemoryVersionPurged', data: { forgettingId: ids.f1, memoryId: ids.brand, versionId: ids.v2 } },
];

describe('foldMemory', () => {
  it('folds to the same state as evolving one event at a time, however the events are split', () => {
    const events = stream();
    const oneByOne = events.reduce(evolveMemory, memoryDecider.initialState());
    expect(foldMemory(memoryDecider.initialState(), events)).toEqual(oneByOne);
    for (let cut = 0; cut <= events.length; cut += 1) {
      const head = foldMemory(memoryDecider.initialState(), events.slice(0, cut));
      expect(foldMemory(head, events.slice(cut))).toEqual(oneByOne);
    }
  });

  it('never writes into the state it starts from (records are copied once, then written in place)', () => {
    const events = stream();
    const cut = 4;
    const head = foldMemory(memoryDecider.initialState(), events.slice(0, cut));
    const snapshot = JSON.stringify(head);
    foldMemory(head, events.slice(cut));
    foldMemory(head, events.slice(cut));
    expect(JSON.stringify(head)).toBe(snapshot);
    // A single evolve outside a fold copies too.
    evolveMemory(head, events[cut]!);
    expect(JSON.stringify(head)).toBe(snapshot);
  });

  it('keeps the dependency index of a folded state, never of a hand-made one', () => {
    const folded = foldMemory(memoryDecider.initialState(), stream());
    expect(dependencyIndex(folded)).toBe(dependencyIndex(folded));
    const handMade = { ...folded, versions: { ...folded.versions } };
    const before = dependencyIndex(handMade);
    delete (handMade.versions as Record<string, unknown>)[ids.v1];
    expect(dependencyIndex(handMade)).not.toBe(before);
    expect(dependencyIndex(handMade).order.has(ids.v1)).toBe(false);
  });
});
