import { PartitionedVectors } from './partitioned-vectors';
import { VectorMatrix } from './vector-matrix';

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Points around `clusters` random directions, as embeddings of related texts are. */
function clustered(count: number, clusters: number, dimensions: number, seed = 7) {
  const random = prng(seed);
  const centers = Array.from({ length: clusters }, () =>
    Float32Array.from({ length: dimensions }, () => random() * 2 - 1),
  );
  return Array.from({ length: count }, (_, i) => {
    const c = centers[Math.floor(random() * clusters)]!;
    return { id: `d${i}`, vector: Float32Array.from(c, (x) => x + (random() * 2 - 1) * 0.6) };
  });
}

const ids = (hits: Array<{ id: string }>) => hits.map((h) => h.id);

describe('PartitionedVectors', () => {
  it('is the exact scan below the threshold', () => {
    const points = clustered(500, 10, 16);
    const exact = new VectorMatrix(16);
    const partitioned = new PartitionedVectors(16, { threshold: 1_000 });
    for (const p of points) {
      exact.set(p.id, p.vector);
      partitioned.set(p.id, p.vector);
    }
    expect(partitioned.partitioned).toBe(false);
    for (const q of points.slice(0, 20)) {
      expect(partitioned.search(q.vector, 10, undefined)).toEqual(exact.search(q.vector, 10, undefined));
    }
  });

  it('partitions at the threshold and finds nearly all of the exact top 10', () => {
    const points = clustered(6_000, 40, 32);
    const exact = new VectorMatrix(32);
    const partitioned = new PartitionedVectors(32, { threshold: 2_000 });
    for (const p of points) {
      exact.set(p.id, p.vector);
      partitioned.set(p.id, p.vector);
    }
    expect(partitioned.partitioned).toBe(true);
    expect(partitioned.size).toBe(6_000);
    // trained at 2 000 and 4 000: √4 000 ≈ 63 cells
    expect(partitioned.cellCount).toBe(63);
    const queries = clustered(200, 40, 32, 7).map((q, i) => ({ ...q, vector: points[i * 7]!.vector }));
    let found = 0;
    for (const q of queries) {
      const truth = new Set(ids(exact.search(q.vector, 10, undefined)));
      found += ids(partitioned.search(q.vector, 10, undefined)).filter((id) => truth.has(id)).length;
    }
    expect(found / (queries.length * 10)).toBeGreaterThan(0.9);
  });

  it('keeps writes and exclusions once partitioned', () => {
    const points = clustered(3_000, 20, 16);
    const partitioned = new PartitionedVectors(16, { threshold: 1_000 });
    for (const p of points) partitioned.set(p.id, p.vector);
    const target = points[42]!;
    expect(partitioned.search(target.vector, 1, undefined)[0]!.id).toBe(target.id);
    expect(partitioned.search(target.vector, 1, new Set([target.id]))[0]!.id).not.toBe(target.id);
    partitioned.delete(target.id);
    expect(partitioned.has(target.id)).toBe(false);
    expect(ids(partitioned.search(target.vector, 5, undefined))).not.toContain(target.id);
    expect(partitioned.size).toBe(2_999);
    // moved: the same id with another vector is found by the new one only
    const other = points[1_500]!;
    partitioned.set(target.id, other.vector);
    expect(partitioned.size).toBe(3_000);
    expect(ids(partitioned.search(other.vector, 2, undefined))).toContain(target.id);
  });

  it('probes more cells when the nearest hold fewer rows than asked for', () => {
    const points = clustered(2_000, 10, 16);
    const partitioned = new PartitionedVectors(16, { threshold: 1_000, minProbes: 1, probeShare: 0 });
    for (const p of points) partitioned.set(p.id, p.vector);
    expect(partitioned.search(points[0]!.vector, 1_500, undefined)).toHaveLength(1_500);
  });
});
