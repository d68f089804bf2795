// Measures the SQLite SearchIndex at router scale: 100 000 documents in one scope, ~12 words each
// from a Zipf vocabulary of 5 000 words (half English-like, half two-character Chinese), 256-dim
// vectors. Prints medians and ends with one JSON line.
//   node -r ./scripts/register.cjs bench/search-index.ts [documents]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSearchIndex, type SearchDocument } from '@lomo/routing';

const DOCUMENTS = Number(process.argv[2] ?? 100_000);
const VOCABULARY = 5_000;
const WORDS = 12;
const DIMENSIONS = 256;
const RUNS = 101;

// A seeded generator, so runs compare.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const vocabulary = Array.from({ length: VOCABULARY }, (_, i) =>
  i % 2 === 0
    ? `q${i.toString(36)}z`
    : String.fromCodePoint(0x4e00 + ((i * 7) % 20_000), 0x4e00 + ((i * 13 + 5) % 20_000)),
);
const cumulative: number[] = [];
let total = 0;
for (let rank = 1; rank <= VOCABULARY; rank += 1) cumulative.push((total += 1 / rank));
const zipfWord = () => {
  const x = random() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo]!;
};
const text = (words: number) => Array.from({ length: words }, zipfWord).join(' ');
const vector = () => Float32Array.from({ length: DIMENSIONS }, () => random() - 0.5);
const document = (i: number): SearchDocument => ({
  scope: 'ws-bench',
  id: `task-${i}`,
  text: text(WORDS),
  vector: vector(),
});
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lomo-search-bench-'));
  const index = new SqliteSearchIndex({ database: join(dir, 'read-models.sqlite'), dimensions: DIMENSIONS });
  try {
    let start = process.hrtime.bigint();
    for (let i = 0; i < DOCUMENTS; i += 1_000) {
      await index.upsert(Array.from({ length: Math.min(1_000, DOCUMENTS - i) }, (_, k) => document(i + k)));
    }
    const buildMs = ms(start);
    start = process.hrtime.bigint();
    await index.searchVector('ws-bench', vector(), { limit: 5 }); // loads the vector cache
    const loadMs = ms(start);

    const textMs: number[] = [];
    const vectorMs: number[] = [];
    const bothMs: number[] = [];
    const exclude = new Set(Array.from({ length: 20 }, (_, i) => `task-${DOCUMENTS - 1 - i}`));
    for (let run = 0; run < RUNS; run += 1) {
      const query = text(8);
      const q = vector();
      const t0 = process.hrtime.bigint();
      await index.searchText('ws-bench', query, { limit: 5, exclude });
      const t1 = process.hrtime.bigint();
      await index.searchVector('ws-bench', q, { limit: 5, exclude });
      textMs.push(Number(t1 - t0) / 1e6);
      vectorMs.push(ms(t1));
      bothMs.push(ms(t0));
    }
    const upsertMs: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const doc = document(Math.floor(random() * DOCUMENTS)); // a task's summary changed
      const t0 = process.hrtime.bigint();
      await index.upsert([doc]);
      upsertMs.push(ms(t0));
    }
    const result = {
      documents: DOCUMENTS,
      dimensions: DIMENSIONS,
      build_ms: Math.round(buildMs),
      vector_cache_load_ms: Math.round(loadMs),
      search_text_median_ms: +median(textMs).toFixed(2),
      search_vector_median_ms: +median(vectorMs).toFixed(2),
      search_both_median_ms: +median(bothMs).toFixed(2),
      upsert_one_median_ms: +median(upsertMs).toFixed(3),
    };
    console.log(`${DOCUMENTS} documents, ${DIMENSIONS}-dim vectors, built in ${result.build_ms} ms`);
    console.log(
      `searchText median ${result.search_text_median_ms} ms, searchVector median ${result.search_vector_median_ms} ms`,
    );
    console.log(`both ${result.search_both_median_ms} ms, upsert of one ${result.upsert_one_median_ms} ms`);
    console.log(JSON.stringify(result));
  } finally {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
