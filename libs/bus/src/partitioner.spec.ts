import fc from 'fast-check';
import { murmur2, partitionFor } from './partitioner';

// kafkajs' own implementation (a port of the Java client's), the reference the mapping must equal.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2') as (key: string) => number;

describe('partitioner', () => {
  it("hashes every string exactly as Kafka's murmur2 does", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (key) => {
        expect(murmur2(key)).toBe(kafkajsMurmur2(key));
      }),
      { numRuns: 2_000 },
    );
  });

  it('matches known Java client values', () => {
    // From Kafka's UtilsTest / DefaultPartitionerTest.
    expect(murmur2('21')).toBe(-973932308);
    expect(murmur2('foobar')).toBe(-790332482);
    expect(murmur2('a-little-bit-long-string')).toBe(-985981536);
    expect(murmur2('a-little-bit-longer-string')).toBe(-1486304829);
    expect(murmur2('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8')).toBe(-58897971);
    expect(partitionFor('foobar', 3)).toBe((-790332482 & 0x7fffffff) % 3);
  });

  it('always gives a partition in range, the same for the same key', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.integer({ min: 1, max: 1000 }), (key, partitions) => {
        const p = partitionFor(key, partitions);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThan(partitions);
        expect(partitionFor(key, partitions)).toBe(p);
      }),
    );
  });
});
