import type { SearchHit } from '../search-index.port';
import { BoundedTopK } from './top-k';
import { VectorMatrix } from './vector-matrix';

/** Room for a cell's rows in a hit's number (cell × CELL_ROWS + row); a cell holds far fewer. */
const CELL_ROWS = 2 ** 26;

export interface PartitionedVectorsOptions {
  /**
   * Below this many vectors the scan is exact (one matrix, every row); from it on, an inverted
   * file of k-means cells is built and a query scans the nearest cells only. 20 000 by default:
   * an exact scan of 20 000 rows takes 1–3 ms here (256–896 dimensions), no worth approximating.
   * `Infinity` keeps every search exact.
   */
  threshold?: number;
  /**
   * Cells probed per query, as a share of the cells (at least `minProbes`); 1/16 by default, so
   * a query scans about 6 % of the rows plus the √n centroids.
   */
  probeShare?: number;
  minProbes?: number;
  /** Vectors the k-means runs on (a deterministic sample); 8 192 by default. */
  trainingSample?: number;
  /** Lloyd iterations; 6 by default. */
  iterations?: number;
}

export const PARTITIONED_VECTORS_DEFAULTS = {
  threshold: 20_000,
  probeShare: 1 / 16,
  minProbes: 8,
  trainingSample: 8_192,
  iterations: 6,
} as const;

interface Cells {
  centroids: VectorMatrix;
  cells: VectorMatrix[];
  /** Vectors when the cells were trained: they are trained again once the count doubles. */
  trainedAt: number;
}

/**
 * The vectors of one scope, searched exactly while few, through an inverted file (IVF) once
 * many: spherical k-means on unit vectors puts √n centroids, every vector lives in the cell of
 * its nearest centroid (its own contiguous VectorMatrix, scanned by the SIMD kernel), and a query
 * scans the centroids, then the rows of its nearest cells only. Approximate: a neighbour in a
 * cell not probed is missed (the bench reports the agreement with the exact scan). Writes keep
 * the cells current (a new vector joins its nearest cell); the cells are trained again when the
 * scope has doubled since, so centroids follow the data. Same interface as VectorMatrix.
 */
export class PartitionedVectors {
  private readonly options: Required<PartitionedVectorsOptions>;
  private flat: VectorMatrix | undefined;
  private ivf: Cells | undefined;
  /** id → its cell, once partitioned. */
  private readonly cellOf = new Map<string, number>();

  constructor(
    readonly dimensions: number,
    options: PartitionedVectorsOptions = {},
  ) {
    this.options = { ...PARTITIONED_VECTORS_DEFAULTS, ...options };
    this.flat = new VectorMatrix(dimensions);
  }

  get size(): number {
    return this.flat ? this.flat.size : this.cellOf.size;
  }

  /** Whether searches are approximate now (the scope reached the threshold). */
  get partitioned(): boolean {
    return this.ivf !== undefined;
  }

  get cellCount(): number {
    return this.ivf?.cells.length ?? 0;
  }

  has(id: string): boolean {
    return this.flat ? this.flat.has(id) : this.cellOf.has(id);
  }

  set(id: string, vector: ArrayLike<number>): void {
    if (this.flat) {
      this.flat.set(id, vector);
      if (this.flat.size >= this.options.threshold) this.train();
      return;
    }
    const ivf = this.ivf!;
    const cell = nearest(ivf.centroids, vector);
    const held = this.cellOf.get(id);
    if (held !== undefined && held !== cell) ivf.cells[held]!.delete(id);
    ivf.cells[cell]!.set(id, vector);
    this.cellOf.set(id, cell);
    if (this.cellOf.size >= ivf.trainedAt * 2) this.train();
  }

  delete(id: string): void {
    if (this.flat) return this.flat.delete(id);
    const cell = this.cellOf.get(id);
    if (cell === undefined) return;
    this.ivf!.cells[cell]!.delete(id);
    this.cellOf.delete(id);
  }

  /** Exact below the threshold; above it, the best `limit` of the probed cells. */
  search(query: ArrayLike<number>, limit: number, exclude: ReadonlySet<string> | undefined): SearchHit[] {
    if (this.flat) return this.flat.search(query, limit, exclude);
    const { centroids, cells } = this.ivf!;
    const probes = Math.min(
      cells.length,
      Math.max(this.options.minProbes, Math.ceil(cells.length * this.options.probeShare)),
    );
    const order = centroids.search(query, cells.length, undefined);
    // One heap over every probed cell, a hit numbered cell × CELL_ROWS + row: a per-cell top
    // `limit` merged afterwards cost as much as the scans themselves.
    const heap = new BoundedTopK(limit);
    const probed: VectorMatrix[] = [];
    let scanned = 0;
    // The nearest `probes` cells, and more while they hold fewer rows than asked for.
    for (let i = 0; i < order.length && (i < probes || scanned < limit); i += 1) {
      const cell = cells[Number(order[i]!.id)]!;
      const scores = cell.size > 0 ? cell.scores(query) : undefined;
      if (!scores) continue;
      const accept = exclude && exclude.size > 0 ? (row: number) => !exclude.has(cell.idAt(row)) : () => true;
      heap.offerAll(scores, cell.size, probed.length * CELL_ROWS, accept);
      probed.push(cell);
      scanned += cell.size;
    }
    return heap
      .sorted()
      .map((h) => ({
        id: probed[Math.floor(h.index / CELL_ROWS)]!.idAt(h.index % CELL_ROWS),
        score: h.score,
      }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  /** (Re)builds the cells from every vector held: k-means on a sample, then every vector assigned. */
  private train(): void {
    const all: Array<[string, Float32Array]> = [];
    const source = this.flat ? this.flat.entries() : this.allCells();
    for (const [id, v] of source) all.push([id, Float32Array.from(v)]);
    const n = all.length;
    const k = Math.max(1, Math.round(Math.sqrt(n)));
    const step = Math.max(1, Math.floor(n / Math.min(n, this.options.trainingSample)));
    const sample: Float32Array[] = [];
    for (let i = 0; i < n; i += step) sample.push(all[i]![1]);
    const centroids = kMeans(sample, k, this.dimensions, this.options.iterations);
    const cells = centroids.map(() => new VectorMatrix(this.dimensions));
    const matrix = new VectorMatrix(this.dimensions);
    centroids.forEach((c, i) => matrix.set(String(i), c));
    this.cellOf.clear();
    for (const [id, v] of all) {
      const cell = nearest(matrix, v);
      cells[cell]!.set(id, v);
      this.cellOf.set(id, cell);
    }
    this.flat = undefined;
    this.ivf = { centroids: matrix, cells, trainedAt: n };
  }

  private *allCells(): Generator<[string, Float32Array]> {
    for (const cell of this.ivf!.cells) yield* cell.entries();
  }
}

/** The row (cell number) of the centroid nearest to `vector`; 0 for a zero vector. */
function nearest(centroids: VectorMatrix, vector: ArrayLike<number>): number {
  const scores = centroids.scores(vector);
  if (!scores) return 0;
  let best = 0;
  for (let i = 1; i < scores.length; i += 1) if (scores[i]! > scores[best]!) best = i;
  return Number(centroids.idAt(best));
}

/**
 * Spherical k-means (cosine): deterministic start from evenly spaced sample points, Lloyd
 * iterations with the SIMD scan for assignment, a cell left empty re-seeded with the point worst
 * served by its centroid.
 */
export function kMeans(points: readonly Float32Array[], k: number, dimensions: number, iterations: number) {
  const n = points.length;
  k = Math.min(k, n);
  let centroids = Array.from({ length: k }, (_, i) => Float32Array.from(points[Math.floor((i * n) / k)]!));
  const assignment = new Int32Array(n);
  const fit = new Float32Array(n);
  for (let iteration = 0; iteration < iterations; iteration += 1) {
    const matrix = new VectorMatrix(dimensions);
    centroids.forEach((c, i) => matrix.set(String(i), c));
    for (let p = 0; p < n; p += 1) {
      const scores = matrix.scores(points[p]!);
      let best = 0;
      if (scores) for (let i = 1; i < scores.length; i += 1) if (scores[i]! > scores[best]!) best = i;
      assignment[p] = best;
      fit[p] = scores ? scores[best]! : 0;
    }
    const sums = Array.from({ length: k }, () => new Float32Array(dimensions));
    const counts = new Int32Array(k);
    for (let p = 0; p < n; p += 1) {
      const sum = sums[assignment[p]!]!;
      const point = points[p]!;
      for (let j = 0; j < dimensions; j += 1) sum[j]! += point[j]!;
      counts[assignment[p]!]! += 1;
    }
    const worst = [...fit.keys()].sort((a, b) => fit[a]! - fit[b]!);
    let reseed = 0;
    centroids = sums.map((sum, i) => (counts[i]! > 0 ? sum : Float32Array.from(points[worst[reseed++]!]!)));
  }
  return centroids;
}
