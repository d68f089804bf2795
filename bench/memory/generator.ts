import type { MemoryScope } from '@lomo/contracts';
import type { MemoryVersionState } from '@lomo/domain';
import { tokenSet } from '@lomo/text';
import type { Prng } from './prng';
import { EN, UNRELATED, ZH, type Scenario } from './scenarios';

export type Ability = 'information_extraction' | 'multi_session' | 'knowledge_update' | 'temporal' | 'abstention';

/** A version as the bench makes it: the state the indexer reads, and its text for the blob. */
export interface BenchVersion {
  userId: string;
  text: string;
  state: MemoryVersionState;
}

export interface BenchCase {
  ability: Ability;
  lang: 'en' | 'zh';
  userId: string;
  taskId: string;
  text: string;
  at?: string;
  /** Version ids that must all be in the top 5 (none for abstention). */
  targets: string[];
  /** A version of the same chain that must not rank above the target (updates, temporal). */
  mustNotOutrank?: string;
  /** Most content words (tokens of @lomo/text) the query shares with any target. */
  sharedWords: number;
}

export interface BenchWorld {
  versions: BenchVersion[];
  cases: BenchCase[];
}

const DAY = 86_400_000;
const START = Date.parse('2026-01-05T09:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const fill = (template: string, value: string) => template.replace('{v}', value);
const SESSIONS = 5;

/**
 * Multi-session histories in the style of LongMemEval: each person talks over five weekly
 * sessions; ten of the fourteen topics come up (facts, refinements, corrections with validity,
 * task-local one-offs), the other four are asked about without ever being said (abstention).
 * Distractors: superseded versions, other tasks' one-offs on the same topic, and every other
 * person's memories on the same topics in the same workspace.
 */
export function generateWorld(prng: Prng, persons: number): BenchWorld {
  const versions: BenchVersion[] = [];
  const cases: BenchCase[] = [];
  for (let p = 0; p < persons; p += 1) {
    const userId = `user-${p}`;
    const lang = p % 20 < 9 ? 'zh' : 'en';
    const pool = lang === 'zh' ? ZH : EN;
    const base = START + p * 3_600_000;
    const sessionAt = (s: number) => base + s * 7 * DAY;
    const task = (s: number) => `task-${p}-${s}`;
    const topics = prng.shuffle(pool);
    const said = topics.slice(0, 10);
    const unsaid = topics.slice(10);
    const add = (sc: Scenario, text: string, over: Partial<MemoryVersionState>): MemoryVersionState => {
      const state: MemoryVersionState = {
        versionId: prng.uuid(),
        memoryId: over.memoryId ?? prng.uuid(),
        version: 1,
        subject: sc.subject,
        kind: 'preference',
        scope: { kind: 'long_term' },
        origin: 'explicit',
        text: null,
        fingerprint: '0'.repeat(64),
        validFrom: iso(sessionAt(0)),
        validTo: null,
        evidence: [],
        derivedFrom: [],
        cause: 'extracted',
        status: 'current',
        supersededBy: null,
        supersededReason: null,
        ...over,
      };
      versions.push({ userId, text, state });
      return state;
    };
    const twoValues = (sc: Scenario) => {
      const [a, b] = prng.shuffle(sc.values);
      return [a!, b!] as const;
    };
    const askTask = task(9);
    // knowledge updates: v1 refined by v2 two sessions later
    for (const sc of said.slice(0, 2)) {
      const [a, b] = twoValues(sc);
      const s1 = prng.int(2);
      const v1 = add(sc, fill(sc.say, a), { validFrom: iso(sessionAt(s1)) });
      const v2 = add(sc, fill(sc.change, b), {
        memoryId: v1.memoryId,
        version: 2,
        validFrom: iso(sessionAt(s1 + 2)),
        derivedFrom: [v1.versionId],
        cause: 'refined',
      });
      Object.assign(v1, { status: 'superseded', supersededBy: v2.versionId, supersededReason: 'refined' });
      const text = prng.pick(sc.ask);
      cases.push(caseOf('knowledge_update', lang, userId, askTask, text, [v2], versions, { mustNotOutrank: v1 }));
    }
    // corrections with validity: v1 held until v2; asked about the earlier time and about now
    for (const sc of said.slice(2, 4)) {
      const [a, b] = twoValues(sc);
      const change = sessionAt(2);
      const v1 = add(sc, fill(sc.say, a), { validFrom: iso(sessionAt(0)), validTo: iso(change) });
      const v2 = add(sc, fill(sc.change, b), {
        memoryId: v1.memoryId,
        version: 2,
        validFrom: iso(change),
        derivedFrom: [v1.versionId],
        cause: 'corrected',
      });
      Object.assign(v1, { status: 'superseded', supersededBy: v2.versionId, supersededReason: 'corrected' });
      const then = iso(sessionAt(1) + prng.int(DAY));
      cases.push(
        caseOf('temporal', lang, userId, askTask, prng.pick(sc.askThen), [v1], versions, {
          at: then,
          mustNotOutrank: v2,
        }),
      );
      cases.push(
        caseOf('temporal', lang, userId, askTask, prng.pick(sc.ask), [v2], versions, {
          at: iso(sessionAt(4)),
          mustNotOutrank: v1,
        }),
      );
    }
    // single facts, one of them local to the task it was said in
    const facts = said.slice(4).map((sc, i) => {
      const s = prng.int(SESSIONS);
      const scope: MemoryScope = i === 0 ? { kind: 'task', taskId: task(s) } : { kind: 'long_term' };
      const value = prng.pick(sc.values);
      const v = add(sc, fill(sc.say, value), { validFrom: iso(sessionAt(s)), scope });
      return { sc, v, s, value };
    });
    for (const f of facts) {
      const taskId = f.v.scope.kind === 'task' ? f.v.scope.taskId : askTask;
      cases.push(caseOf('information_extraction', lang, userId, taskId, prng.pick(f.sc.ask), [f.v], versions));
    }
    // task-local one-offs of other tasks on said topics (never to be recalled in the asking task)
    for (const f of facts.slice(1, 4)) {
      const other = f.sc.values.find((v) => v !== f.value) ?? f.value;
      add(f.sc, fill(f.sc.oneOff, other), {
        validFrom: iso(sessionAt(f.s)),
        scope: { kind: 'task', taskId: task(5 + prng.int(3)) },
      });
    }
    // multi-session: two facts said in different sessions, asked in one question
    const longTerm = facts.slice(1);
    for (let k = 0; k < 2; k += 1) {
      const [x, y] = prng.shuffle(longTerm);
      const join =
        lang === 'zh'
          ? `${prng.pick(x!.sc.ask)}${prng.pick(y!.sc.ask)}`
          : `${prng.pick(x!.sc.ask)} Also, ${lowerFirst(prng.pick(y!.sc.ask))}`;
      cases.push(caseOf('multi_session', lang, userId, askTask, join, [x!.v, y!.v], versions));
    }
    // abstention: topics this person never raised (others did), and something out of the domain
    for (const sc of unsaid) cases.push(caseOf('abstention', lang, userId, askTask, prng.pick(sc.ask), [], versions));
    cases.push(
      caseOf(
        'abstention',
        lang,
        userId,
        askTask,
        prng.pick(UNRELATED.filter((u) => u.lang === lang)).text,
        [],
        versions,
      ),
    );
  }
  return { versions, cases };
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function caseOf(
  ability: Ability,
  lang: 'en' | 'zh',
  userId: string,
  taskId: string,
  text: string,
  targets: MemoryVersionState[],
  versions: readonly BenchVersion[],
  extra: { at?: string; mustNotOutrank?: MemoryVersionState } = {},
): BenchCase {
  const query = tokenSet(text);
  const textOf = (id: string) => versions.find((v) => v.state.versionId === id)!.text;
  const shared = targets.map((t) => [...tokenSet(textOf(t.versionId))].filter((w) => query.has(w)).length);
  return {
    ability,
    lang,
    userId,
    taskId,
    text,
    at: extra.at,
    targets: targets.map((t) => t.versionId),
    mustNotOutrank: extra.mustNotOutrank?.versionId,
    sharedWords: shared.length ? Math.max(...shared) : 0,
  };
}
