import type { SearchHit } from '../search-index.port';
import { createMemory, PAGE_BYTES, simdKernel, type LinearMemory, type ScanKernel } from './dot-scan-wasm';
import { topK } from './top-k';

const LANES = 8;

/**
 * The unit vectors of one scope in one contiguous Float32 block (rows padded to a multiple of 8
 * floats), scanned in full for every query: cosine of unit vectors is their dot product, so the
 * search is exact. The block lives in a WebAssembly memory of its own so the SIMD kernel can
 * scan it (~5 ms for 100 000 × 256 here); without WebAssembly SIMD a JS loop does the same.
 * Removal moves the last row into the hole, so rows stay dense.
 */
export class VectorMatrix {
  private readonly stride: number;
  private readonly memory: LinearMemory;
  private readonly kernel: ScanKernel | undefined;
  private floats: Float32Array;
  private capacity: number;
  private readonly ids: string[] = [];
  private readonly rows = new Map<string, number>();

  /** `simd: false` forces the JS loop (the fallback, tested against the kernel). */
  constructor(
    readonly dimensions: number,
    options: { simd?: boolean } = {},
  ) {
    this.stride = Math.ceil(dimensions / LANES) * LANES;
    this.capacity = 64;
    this.memory = createMemory(this.pagesFor(this.capacity));
    this.kernel = options.simd === false ? undefined : simdKernel(this.memory);
    this.floats = new Float32Array(this.memory.buffer);
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** Stores the vector normalised to unit length (a zero vector stays zero: cosine 0 with all). */
  set(id: string, vector: ArrayLike<number>): void {
    let row = this.rows.get(id);
    if (row === undefined) {
      row = this.ids.length;
      this.ensureCapacity(row + 1);
      this.ids.push(id);
      this.rows.set(id, row);
    }
    writeUnit(this.floats, row * this.stride, vector, this.dimensions, this.stride);
  }

  delete(id: string): void {
    const row = this.rows.get(id);
    if (row === undefined) return;
    const last = this.ids.length - 1;
    if (row !== last) {
      const moved = this.ids[last]!;
      this.floats.copyWithin(row * this.stride, last * this.stride, (last + 1) * this.stride);
      this.ids[row] = moved;
      this.rows.set(moved, row);
    }
    this.ids.pop();
    this.rows.delete(id);
  }

  /** The stored unit vector of `id` (a view, valid until the next write), or undefined. */
  vectorOf(id: string): Float32Array | undefined {
    const row = this.rows.get(id);
    return row === undefined ? undefined : this.floats.subarray(row * this.stride, row * this.stride + this.dimensions);
  }

  /** Every id with its unit vector (views, valid until the next write). */
  *entries(): Generator<[string, Float32Array]> {
    for (let row = 0; row < this.ids.length; row += 1) {
      yield [this.ids[row]!, this.floats.subarray(row * this.stride, row * this.stride + this.dimensions)];
    }
  }

  /**
   * The cosine of the query with every row, in row order (a view, valid until the next call or
   * write), or undefined for a zero query; `idAt` names a row.
   */
  scores(query: ArrayLike<number>): Float32Array | undefined {
    const count = this.ids.length;
    const queryAt = this.capacity * this.stride;
    const outAt = queryAt + this.stride;
    if (!writeUnit(this.floats, queryAt, query, this.dimensions, this.stride)) return undefined;
    if (count === 0) return this.floats.subarray(outAt, outAt);
    // Only the query's non-zero span of columns can add to a dot product: a bilingual query
    // (one language's half set) reads half of every row, and the scan is bound by memory.
    const [from, to] = nonZeroSpan(this.floats, queryAt, this.stride);
    if (this.kernel) this.kernel(from * 4, (queryAt + from) * 4, outAt * 4, count, this.stride, to - from);
    else scanJs(this.floats, queryAt, outAt, count, this.stride, from, to);
    return this.floats.subarray(outAt, outAt + count);
  }

  idAt(row: number): string {
    return this.ids[row]!;
  }

  search(query: ArrayLike<number>, limit: number, exclude: ReadonlySet<string> | undefined): SearchHit[] {
    const count = this.ids.length;
    if (count === 0) return [];
    const scores = this.scores(query);
    if (!scores) return [];
    const accept = exclude && exclude.size > 0 ? (i: number) => !exclude.has(this.ids[i]!) : () => true;
    return topK(scores, count, Math.min(limit, count), accept).map((h) => ({ id: this.ids[h.index]!, score: h.score }));
  }

  private pagesFor(capacity: number): number {
    // rows, then the query row and one score per row as scratch
    return Math.ceil((((capacity + 1) * this.stride + capacity) * 4) / PAGE_BYTES) + 1;
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.capacity) return;
    let capacity = this.capacity;
    while (capacity < rows) capacity *= 2;
    const pages = this.pagesFor(capacity) - this.memory.buffer.byteLength / PAGE_BYTES;
    if (pages > 0) this.memory.grow(pages);
    this.capacity = capacity;
    this.floats = new Float32Array(this.memory.buffer);
  }
}

/** Writes `vector / |vector|` at `at`, zero-padded to `stride`; false for a zero vector. */
function writeUnit(target: Float32Array, at: number, vector: ArrayLike<number>, dimensions: number, stride: number) {
  let norm = 0;
  for (let i = 0; i < dimensions; i += 1) norm += vector[i]! * vector[i]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < dimensions; i += 1) target[at + i] = vector[i]! * scale;
  target.fill(0, at + dimensions, at + stride);
  return norm > 0;
}

/**
 * The columns [from, to) outside which the row at `at` is zero, widened to whole 8-float lanes
 * (the kernel's pass); a non-zero row gives a span of at least 8.
 */
function nonZeroSpan(f: Float32Array, at: number, stride: number): [number, number] {
  let first = 0;
  while (first < stride && f[at + first] === 0) first += 1;
  let last = stride - 1;
  while (last > first && f[at + last] === 0) last -= 1;
  const from = Math.floor(first / LANES) * LANES;
  return [from, Math.max(from + LANES, Math.ceil((last + 1) / LANES) * LANES)];
}

function scanJs(
  f: Float32Array,
  queryAt: number,
  outAt: number,
  count: number,
  stride: number,
  from: number,
  to: number,
) {
  for (let r = 0, o = 0; r < count; r += 1, o += stride) {
    let a0 = 0;
    let a1 = 0;
    for (let j = from; j < to; j += 2) {
      a0 += f[o + j]! * f[queryAt + j]!;
      a1 += f[o + j + 1]! * f[queryAt + j + 1]!;
    }
    f[outAt + r] = a0 + a1;
  }
}
