import type { MemoryRecall } from '@lomo/runtime';
import type { Ability, BenchCase, BenchVersion } from './generator';
import { WORKSPACE } from './harness';

export interface AbilityScore {
  cases: number;
  hits: number;
}

export interface Evaluation {
  byAbility: Record<Ability, AbilityScore>;
  byLang: Record<'en' | 'zh', AbilityScore>;
  /** Recalled documents of another task's local scope or of another person: must stay 0. */
  leaks: number;
}

/** Runs every case with limit 5 and scores it as the issue defines (see bench/memory/README.md). */
export async function evaluate(recall: MemoryRecall, cases: readonly BenchCase[], versions: readonly BenchVersion[]) {
  const owner = new Map(versions.map((v) => [v.state.versionId, v]));
  const zero = () => ({ cases: 0, hits: 0 });
  const result: Evaluation = {
    byAbility: {
      information_extraction: zero(),
      multi_session: zero(),
      knowledge_update: zero(),
      temporal: zero(),
      abstention: zero(),
    },
    byLang: { en: zero(), zh: zero() },
    leaks: 0,
  };
  for (const c of cases) {
    const recalled = await recall.recall({
      workspaceId: WORKSPACE,
      userId: c.userId,
      taskId: c.taskId,
      text: c.text,
      limit: 5,
      at: c.at,
    });
    const ids = recalled.map((m) => m.versionId);
    for (const id of ids) {
      const v = owner.get(id)!;
      const scope = v.state.scope;
      if (v.userId !== c.userId || (scope.kind === 'task' && scope.taskId !== c.taskId)) result.leaks += 1;
    }
    let hit: boolean;
    if (c.ability === 'abstention')
      hit = ids.length > 0; // counted as a false recall
    else {
      hit = c.targets.every((t) => ids.includes(t));
      if (hit && c.mustNotOutrank !== undefined) {
        const other = ids.indexOf(c.mustNotOutrank);
        hit = other === -1 || other > Math.max(...c.targets.map((t) => ids.indexOf(t)));
      }
    }
    const score = result.byAbility[c.ability];
    score.cases += 1;
    if (hit) score.hits += 1;
    if (c.ability !== 'abstention') {
      result.byLang[c.lang].cases += 1;
      if (hit) result.byLang[c.lang].hits += 1;
    }
  }
  return result;
}
