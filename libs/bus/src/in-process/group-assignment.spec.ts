import fc from 'fast-check';
import { assignPartitions } from './group-assignment';

describe('assignPartitions', () => {
  it('gives every partition to exactly one member, balanced within one', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.uuid(), { minLength: 1, maxLength: 6 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 1, max: 12 })),
        (memberIds, partitionsByTopic) => {
          const topics = Object.keys(partitionsByTopic);
          const members = memberIds.map((memberId) => ({ memberId, topics }));
          const result = assignPartitions(members, (t) => partitionsByTopic[t]);
          const all = [...result.values()].flat().map((tp) => `${tp.topic}#${tp.partition}`);
          const expected = topics.flatMap((t) => Array.from({ length: partitionsByTopic[t] }, (_, p) => `${t}#${p}`));
          expect(all.sort()).toEqual(expected.sort());
          const sizes = [...result.values()].map((l) => l.length);
          expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('is the same whatever order the members are listed in', () => {
    const members = [
      { memberId: 'm2', topics: ['t'] },
      { memberId: 'm1', topics: ['t'] },
    ];
    const one = assignPartitions(members, () => 4);
    const two = assignPartitions([...members].reverse(), () => 4);
    expect([...one.entries()].sort()).toEqual([...two.entries()].sort());
    expect(one.get('m1')).toEqual([
      { topic: 't', partition: 0 },
      { topic: 't', partition: 2 },
    ]);
  });

  it('assigns a topic only to members subscribed to it', () => {
    const result = assignPartitions(
      [
        { memberId: 'm1', topics: ['t1'] },
        { memberId: 'm2', topics: ['t1', 't2'] },
      ],
      () => 2,
    );
    expect(result.get('m1')?.every((tp) => tp.topic === 't1')).toBe(true);
    expect(result.get('m2')?.filter((tp) => tp.topic === 't2')).toHaveLength(2);
  });
});
