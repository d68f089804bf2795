/**
 * Kafka's key partitioner (Java client `Utils.murmur2`, kafkajs DefaultPartitioner): the same
 * key gets the same partition index in the embedded and the distributed mode. Multiplications
 * are 32-bit (Math.imul) because Kafka keeps only the low 32 bits of each product.
 */
const SEED = 0x9747b28c;
const M = 0x5bd1e995;

export function murmur2(key: string): number {
  const data = Buffer.from(key, 'utf8');
  const length = data.length;
  let h = SEED ^ length;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i += 1) {
    const i4 = i * 4;
    let k = data[i4] | (data[i4 + 1] << 8) | (data[i4 + 2] << 16) | (data[i4 + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M);
    h ^= k;
  }
  // The 1-3 trailing bytes, as the reference implementation's fall-through switch takes them.
  const tail = length & ~3;
  const rest = length % 4;
  if (rest === 3) h ^= data[tail + 2] << 16;
  if (rest >= 2) h ^= data[tail + 1] << 8;
  if (rest >= 1) {
    h ^= data[tail];
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

export function partitionFor(key: string, partitions: number): number {
  return (murmur2(key) & 0x7fffffff) % partitions;
}
