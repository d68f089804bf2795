/**
 * npm run bench:memory — recall in the style of LongMemEval (five abilities) over seeded
 * multi-session histories, recall latency at 1 000 and 100 000 memories, and the forget
 * cascade's time. Method, scoring and the no-leakage rule: bench/memory/README.md.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  ConceptEmbeddingProvider,
  HashingEmbeddingProvider,
  OnnxEmbeddingProvider,
  onnxModelsPresent,
  type EmbeddingProvider,
} from '@lomo/llm';
import { personScope } from '@lomo/memory';
import { SqliteSearchIndex } from '@lomo/routing';
import { InMemorySearchIndex } from '@lomo/routing/testing';
import { evaluate, type Evaluation } from './memory/evaluate';
import { forgetCascadeTiming } from './memory/forget-cascade';
import { forgetTiming } from './memory/forget-timing';
import { generateWorld, type Ability } from './memory/generator';
import { buildRecall, WORKSPACE } from './memory/harness';
import { BenchEmbedder, measureLatency } from './memory/latency';
import { EN, ZH } from './memory/scenarios';
import { seeded } from './memory/prng';

const SEED = Number(process.env.BENCH_SEED ?? 18);
const PERSONS = 60;
const ABILITIES: Ability[] = ['information_extraction', 'multi_session', 'knowledge_update', 'temporal', 'abstention'];
const rate = (s: { cases: number; hits: number }) => (s.cases === 0 ? 0 : s.hits / s.cases);
const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function accuracy(embedder: EmbeddingProvider) {
  const world = generateWorld(seeded(SEED), PERSONS);
  const index = new InMemorySearchIndex({ dimensions: embedder.dimensions });
  const { recall, recallWith } = await buildRecall(index, embedder, world.versions);
  return { world, recallWith, result: await evaluate(recall, world.cases, world.versions) };
}

function overall(e: Evaluation) {
  const scored = ABILITIES.filter((a) => a !== 'abstention').map((a) => e.byAbility[a]);
  return rate({ cases: scored.reduce((n, s) => n + s.cases, 0), hits: scored.reduce((n, s) => n + s.hits, 0) });
}

function printAccuracy(name: string, e: Evaluation) {
  console.log(`\n  embedder: ${name}`);
  for (const a of ABILITIES) {
    const s = e.byAbility[a];
    const label = a === 'abstention' ? 'false-recall rate' : 'recall@5';
    console.log(`    ${a.padEnd(24)} ${label.padEnd(18)} ${r3(rate(s)).toFixed(3)}  (${s.hits}/${s.cases})`);
  }
  console.log(`    ${'overall (non-abstention)'.padEnd(24)} ${'recall@5'.padEnd(18)} ${r3(overall(e)).toFixed(3)}`);
  console.log(`    by language: en ${r3(rate(e.byLang.en))}, zh ${r3(rate(e.byLang.zh))}; scope leaks: ${e.leaks}`);
}

function printFloors(e: Evaluation[], floors: readonly number[]) {
  floors.forEach((floor, i) =>
    console.log(
      `      floor ${floor.toFixed(1)}: recall@5 ${r3(overall(e[i]!)).toFixed(3)}, false-recall rate ${r3(rate(e[i]!.byAbility.abstention)).toFixed(3)}`,
    ),
  );
}

async function floorsOf(run: Awaited<ReturnType<typeof accuracy>>, floors: readonly number[]) {
  const out: Evaluation[] = [];
  for (const floor of floors)
    out.push(await evaluate(run.recallWith({ minSimilarity: floor }), run.world.cases, run.world.versions));
  return out;
}

const summary = (e: Evaluation) => ({
  recall_at_5: r3(overall(e)),
  recall_at_5_knowledge_update: r3(rate(e.byAbility.knowledge_update)),
  recall_at_5_temporal: r3(rate(e.byAbility.temporal)),
  false_recall_rate: r3(rate(e.byAbility.abstention)),
});

/** Share of the exact index's recalled versions that the approximate one recalled too. */
function agreement(exact: readonly string[][], approximate: readonly string[][]) {
  let found = 0;
  let total = 0;
  exact.forEach((ids, i) => {
    const got = new Set(approximate[i]);
    total += ids.length;
    found += ids.filter((id) => got.has(id)).length;
  });
  return total === 0 ? 1 : found / total;
}

/**
 * Tie-aware agreement of the approximate vector search with the exact one: of the exact top 50,
 * how many the approximate top 50 matches, counting any hit scored at least the exact 50th's
 * cosine (the corpus repeats texts, so many rows tie and ids alone would under-count).
 */
async function vectorAgreement(exact: SqliteSearchIndex, approximate: SqliteSearchIndex, embedder: EmbeddingProvider) {
  const scope = personScope({ workspaceId: WORKSPACE, userId: 'user-big' });
  const texts = [...EN, ...ZH].flatMap((sc) => [...sc.ask, ...sc.askThen]);
  const vectors = await (embedder.embedQuery ?? embedder.embed).call(embedder, { texts });
  let found = 0;
  let total = 0;
  for (const vector of vectors) {
    const truth = await exact.searchVector(scope, vector, { limit: 50 });
    const got = await approximate.searchVector(scope, vector, { limit: 50 });
    const kth = truth[truth.length - 1]?.score ?? Infinity;
    total += truth.length;
    found += Math.min(truth.length, got.filter((h) => h.score >= kth - 1e-6).length);
  }
  return { agreement: total === 0 ? 1 : found / total, queries: texts.length };
}

async function latencyOf(embedder: EmbeddingProvider, distinct: number | undefined) {
  const bench = new BenchEmbedder(embedder);
  const run = async (count: number, exact: boolean) => {
    const index = new SqliteSearchIndex({
      database: ':memory:',
      dimensions: embedder.dimensions,
      vectorSearch: exact ? { threshold: Infinity } : undefined,
    });
    const l = await measureLatency(seeded(SEED + count), index, bench, count, { distinct });
    console.log(
      `    ${String(count).padStart(7)} memories, ${exact ? 'exact scan      ' : 'default (IVF≥20k)'}: median ${l.medianMs.toFixed(2)} ms (query embedding ${l.embedMedianMs.toFixed(2)} + search and reads ${l.searchMedianMs.toFixed(2)}), p95 ${l.p95Ms.toFixed(2)} ms (indexed in ${l.indexSeconds.toFixed(1)} s)`,
    );
    return { l, index };
  };
  const small = await run(1_000, false);
  small.index.close();
  const exact = await run(100_000, true);
  const approximate = await run(100_000, false);
  const ids = agreement(exact.l.recalled, approximate.l.recalled);
  const vectors = await vectorAgreement(exact.index, approximate.index, bench);
  exact.index.close();
  approximate.index.close();
  console.log(
    `    approximate vs exact at 100 000: vector top 50 ${r3(vectors.agreement).toFixed(3)} (tie-aware, ${vectors.queries} queries); recall's top 5 ids ${r3(ids).toFixed(3)} (ids of tied copies differ)`,
  );
  return { small: small.l, exact: exact.l, approximate: approximate.l, agree: vectors.agreement, ids };
}

/**
 * The forget cascade at 10 000 memories: end to end (runForgetting on the real stores: the
 * figure, `forget_ms_median`) and the planner alone (`forget_planner_ms_median`, no I/O).
 */
async function forgetPart() {
  const planner = forgetTiming(seeded(SEED + 7));
  const cascade = await forgetCascadeTiming(seeded(SEED + 8));
  const ms = (x: number | null) => (x === null ? 'null' : `${x.toFixed(2)} ms`);
  console.log(
    `\n  forget cascade, end to end (10 000 memories): median ${ms(cascade.medianMs)} (process CPU ${ms(cascade.cpuMedianMs)}; first run, stream not yet folded by the runner: ${ms(cascade.firstRunMs)}) — ${cascade.note}`,
  );
  console.log(
    `  forget request through the API's handlers: first ${ms(cascade.api.firstRequestMs)} (folds the whole stream), then median ${ms(cascade.api.requestMedianMs)}; confirm median ${ms(cascade.api.confirmMedianMs)}`,
  );
  console.log(`  forget planner alone (10 000 memories): ${ms(planner.medianMs)} — ${planner.note}`);
  return {
    forget_ms_median: cascade.medianMs === null ? null : r3(cascade.medianMs),
    forget_cpu_ms_median: cascade.cpuMedianMs === null ? null : r3(cascade.cpuMedianMs),
    forget_first_run_ms: cascade.firstRunMs === null ? null : r3(cascade.firstRunMs),
    forget_planner_ms_median: planner.medianMs === null ? null : r3(planner.medianMs),
    forget_request_first_ms: cascade.api.firstRequestMs === null ? null : r3(cascade.api.firstRequestMs),
    forget_request_ms_median: cascade.api.requestMedianMs === null ? null : r3(cascade.api.requestMedianMs),
    forget_confirm_ms_median: cascade.api.confirmMedianMs === null ? null : r3(cascade.api.confirmMedianMs),
  };
}

async function main() {
  // BENCH_MEMORY_ONLY=forget: the forget part alone (a few minutes less than the whole bench).
  if (process.env.BENCH_MEMORY_ONLY === 'forget') {
    console.log(JSON.stringify(await forgetPart()));
    return;
  }
  const concept = new ConceptEmbeddingProvider();
  const hashing = new HashingEmbeddingProvider();
  const modelDir = process.env.LOMO_EMBEDDING_MODEL_DIR ?? join(__dirname, '..', '.models');
  const onnx = onnxModelsPresent(modelDir) ? new OnnxEmbeddingProvider({ directory: modelDir }) : undefined;
  const conceptRun = await accuracy(concept);
  const { world, result } = conceptRun;
  const withTargets = world.cases.filter((c) => c.targets.length > 0);
  const paraphrased = withTargets.filter((c) => c.sharedWords <= 1).length;
  const zh = world.cases.filter((c) => c.lang === 'zh').length;
  console.log(
    `memory recall bench (seed ${SEED}): ${PERSONS} people, ${world.versions.length} memory versions, ${world.cases.length} cases`,
  );
  console.log(
    `  queries sharing <= 1 content word with their target: ${paraphrased}/${withTargets.length} (${r3(paraphrased / withTargets.length)})`,
  );
  console.log(`  Chinese cases: ${zh}/${world.cases.length} (${r3(zh / world.cases.length)})`);
  console.log(`  index: in-memory SearchIndex adapter; recall limit 5, cosine floor 0.3, RRF k=60`);
  if (!onnx) console.log(`  no ONNX models in ${modelDir} (npm run models:fetch): the concept embedder's figures only`);
  printAccuracy(`${concept.name} (local, lexical + bilingual creative thesaurus)`, result);
  console.log('    the abstention floor trades recall for false recalls (same cases, other floors; not the default):');
  printFloors(await floorsOf(conceptRun, [0, 0.1, 0.2]), [0, 0.1, 0.2]);
  let onnxResult: Evaluation | undefined;
  if (onnx) {
    const t0 = performance.now();
    const onnxRun = await accuracy(onnx);
    onnxResult = onnxRun.result;
    printAccuracy(
      `${onnx.name} (local ONNX sentence embedders, semantic; ${onnxRun.world.versions.length} documents embedded in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
      onnxResult,
    );
    console.log(
      "    the same floor trade-off on the model's cosine (not the default; bge cosines of unrelated texts run high):",
    );
    const floors = [0.4, 0.5, 0.6];
    printFloors(await floorsOf(onnxRun, floors), floors);
  }
  const baseline = await accuracy(hashing);
  printAccuracy(`${hashing.name} (local, lexical; shared words only) — for comparison`, baseline.result);

  console.log(`\n  recall latency (one person, SQLite search index in memory, limit 5, ${concept.name} embedder):`);
  const conceptLatency = await latencyOf(concept, undefined);
  let onnxLatency: Awaited<ReturnType<typeof latencyOf>> | undefined;
  if (onnx) {
    console.log(
      `\n  recall latency (the same, ${onnx.name} embedder, 1 thread; the corpus draws its texts from 4 000 distinct ones, each embedded once):`,
    );
    onnxLatency = await latencyOf(onnx, 4_000);
  }
  const forget = await forgetPart();
  const primary = onnxResult ?? result;
  const primaryLatency = onnxLatency ?? conceptLatency;
  console.log(
    JSON.stringify({
      embedder: onnx ? onnx.name : concept.name,
      ...summary(primary),
      recall_median_ms_100000: r3(primaryLatency.approximate.medianMs),
      recall_embed_ms_median_100000: r3(primaryLatency.approximate.embedMedianMs),
      recall_search_ms_median_100000: r3(primaryLatency.approximate.searchMedianMs),
      recall_median_ms_100000_exact: r3(primaryLatency.exact.medianMs),
      vector_agreement_at_50_100000: r3(primaryLatency.agree),
      recall_median_ms_1000: r3(primaryLatency.small.medianMs),
      ...forget,
      concept: {
        ...summary(result),
        recall_median_ms_100000: r3(conceptLatency.approximate.medianMs),
        recall_median_ms_100000_exact: r3(conceptLatency.exact.medianMs),
        vector_agreement_at_50_100000: r3(conceptLatency.agree),
      },
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
