/**
 * npm run bench:memory — recall in the style of LongMemEval (five abilities) over seeded
 * multi-session histories, recall latency at 1 000 and 100 000 memories, and the forget
 * cascade's time. Method, scoring and the no-leakage rule: bench/memory/README.md.
 */
import { ConceptEmbeddingProvider, HashingEmbeddingProvider, type EmbeddingProvider } from '@lomo/llm';
import { SqliteSearchIndex } from '@lomo/routing';
import { InMemorySearchIndex } from '@lomo/routing/testing';
import { evaluate, type Evaluation } from './memory/evaluate';
import { forgetTiming } from './memory/forget-timing';
import { generateWorld, type Ability } from './memory/generator';
import { buildRecall } from './memory/harness';
import { measureLatency } from './memory/latency';
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

async function main() {
  const concept = new ConceptEmbeddingProvider();
  const hashing = new HashingEmbeddingProvider();
  const { world, result, recallWith } = await accuracy(concept);
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
  printAccuracy(`${concept.name} (local, lexical + bilingual creative thesaurus) — the figures below`, result);
  console.log('    the abstention floor trades recall for false recalls (same cases, other floors; not the default):');
  for (const floor of [0, 0.1, 0.2]) {
    const e = await evaluate(recallWith({ minSimilarity: floor }), world.cases, world.versions);
    console.log(
      `      floor ${floor.toFixed(1)}: recall@5 ${r3(overall(e)).toFixed(3)}, false-recall rate ${r3(rate(e.byAbility.abstention)).toFixed(3)}`,
    );
  }
  const baseline = await accuracy(hashing);
  printAccuracy(`${hashing.name} (local, lexical; shared words only) — for comparison`, baseline.result);

  console.log('\n  recall latency (one person, SQLite search index in memory, concept embedder, limit 5):');
  const latency = [];
  for (const count of [1_000, 100_000]) {
    const index = new SqliteSearchIndex({ database: ':memory:', dimensions: concept.dimensions });
    const l = await measureLatency(seeded(SEED + count), index, concept, count);
    latency.push(l);
    console.log(
      `    ${String(count).padStart(7)} memories: median ${l.medianMs.toFixed(2)} ms, p95 ${l.p95Ms.toFixed(2)} ms (indexed in ${l.indexSeconds.toFixed(1)} s)`,
    );
  }
  const forget = forgetTiming(seeded(SEED + 7));
  console.log(
    `\n  forget cascade (10 000 memories): ${forget.medianMs === null ? 'null' : `${forget.medianMs.toFixed(2)} ms`} — ${forget.note}`,
  );
  console.log(
    JSON.stringify({
      recall_at_5: r3(overall(result)),
      recall_at_5_knowledge_update: r3(rate(result.byAbility.knowledge_update)),
      recall_at_5_temporal: r3(rate(result.byAbility.temporal)),
      false_recall_rate: r3(rate(result.byAbility.abstention)),
      recall_median_ms_100000: r3(latency[1]!.medianMs),
      forget_ms_median: forget.medianMs === null ? null : r3(forget.medianMs),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
