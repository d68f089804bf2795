import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { tokenSet } from '@lomo/text';

/** The labelled routing cases under test/fixtures/routing/ (one JSON file per group). */
export const FIXTURES_DIR = path.join(__dirname, '../../test/fixtures/routing');

const key = z.string().regex(/^[a-z0-9_-]{1,40}$/);
const outcome = z.enum(['main', 'lightweight', 'existing', 'new', 'clarify']);
const expectation = z.strictObject({ outcome, task: key.nullable() });

export const routingCase = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]{1,58}$/),
  class: z.enum(['deterministic', 'structural', 'paraphrase', 'semantic']),
  language: z.enum(['en', 'zh-Hans', 'zh-Hant']),
  text: z.string().trim().min(1).max(2000),
  channel: z.enum(['ui', 'api', 'card']).optional(),
  /** The message names a task (by key) or an artefact (by key). */
  target: z.union([z.strictObject({ task: key }), z.strictObject({ artifact: key })]).optional(),
  /** Target keys that name no task at all (a task id that was never created). */
  missingTargets: z.array(key).optional(),
  /** An open clarification card on the main line: the message it asked about, and its task options in order. */
  pending: z.strictObject({ asked: z.string().min(1), options: z.array(key).min(1).max(3) }).optional(),
  /** A card button press: the option chosen (a task key, or "new"); the text is then the button's label. */
  answer: key.optional(),
  /** Messages the router routed to a task moments before (read-your-writes). */
  recent: z.array(z.strictObject({ task: key, text: z.string().min(1) })).optional(),
  tasks: z.array(
    z.strictObject({
      key,
      goal: z.string().min(1),
      summary: z.string().min(1),
      kind: z.enum(['persistent', 'lightweight']),
      status: z.enum(['active', 'paused', 'stopped', 'completed', 'archived']),
      /** Minutes since the task's last activity. */
      minutes: z.number().int().min(0),
    }),
  ),
  artifacts: z.array(z.strictObject({ key, task: key.nullable(), deleted: z.boolean().optional() })).optional(),
  expected: expectation,
  /** Other answers that are also right (a duplicate may be reused or asked about). */
  accept: z.array(expectation).optional(),
});
export type RoutingCase = z.infer<typeof routingCase>;
export type Outcome = z.infer<typeof outcome>;
export const OUTCOMES = outcome.options;
export const CLASSES = routingCase.shape.class.options;

const group = z.strictObject({ group: z.string(), about: z.string(), cases: z.array(z.unknown()) });

/** Reads every fixture file; a case that does not parse is a problem, not a skipped case. */
export function loadRoutingCases(dir = FIXTURES_DIR): { cases: RoutingCase[]; problems: string[] } {
  const cases: RoutingCase[] = [];
  const problems: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const parsed = group.safeParse(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    if (!parsed.success) {
      problems.push(`${file}: ${parsed.error.message}`);
      continue;
    }
    parsed.data.cases.forEach((raw, i) => {
      const one = routingCase.safeParse(raw);
      if (one.success) cases.push(one.data);
      else
        problems.push(
          `${file} case ${i}: ${one.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
        );
    });
  }
  return { cases, problems: [...problems, ...checkRoutingCases(cases)] };
}

export const MIN_CASES = 60;
export const MIN_CHINESE = 20;
export const MIN_PER_OUTCOME = 5;
export const MIN_PARAPHRASES = 20;

/** The rules of the eval set beyond the schema: references resolve, the counts hold, paraphrases share no word. */
export function checkRoutingCases(cases: readonly RoutingCase[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const c of cases) {
    const say = (what: string) => problems.push(`${c.id}: ${what}`);
    if (ids.has(c.id)) say('duplicate id');
    ids.add(c.id);
    const keys = new Set(c.tasks.map((t) => t.key));
    if (keys.size !== c.tasks.length) say('duplicate task key');
    const known = (k: string | null) => k === null || keys.has(k);
    const artifacts = new Set((c.artifacts ?? []).map((a) => a.key));
    if (c.target && 'task' in c.target && !keys.has(c.target.task) && !(c.missingTargets ?? []).includes(c.target.task))
      say(`target task ${c.target.task} is neither a task nor a missing target`);
    if (c.target && 'artifact' in c.target && !artifacts.has(c.target.artifact))
      say(`target artefact ${c.target.artifact} is not listed`);
    for (const a of c.artifacts ?? []) if (!known(a.task)) say(`artefact ${a.key} names unknown task ${a.task}`);
    for (const r of c.recent ?? []) if (!keys.has(r.task)) say(`recent names unknown task ${r.task}`);
    for (const o of c.pending?.options ?? []) if (!keys.has(o)) say(`card option ${o} is not a task`);
    for (const e of [c.expected, ...(c.accept ?? [])]) {
      if (!known(e.task)) say(`expected task ${e.task} is unknown`);
      if ((e.outcome === 'existing') !== (e.task !== null)) say('an expected task is named exactly for "existing"');
    }
    if (c.answer !== undefined) {
      if (c.pending === undefined || c.channel !== 'card')
        say('a button answer needs a pending card and channel "card"');
      else if (c.answer !== 'new') {
        const at = c.pending.options.indexOf(c.answer);
        const goal = c.tasks.find((t) => t.key === c.answer)?.goal;
        if (at < 0) say(`answer ${c.answer} is not an option of the card`);
        else if (c.text !== buttonLabel(at, goal ?? ''))
          say(`a button sends its label: "${buttonLabel(at, goal ?? '')}"`);
      }
    }
    if (c.class === 'paraphrase') {
      const target = c.tasks.find((t) => t.key === c.expected.task);
      if (c.expected.outcome !== 'existing' || target === undefined)
        say('a paraphrase is a follow-up to an existing task');
      else {
        const shared = [...tokenSet(c.text)].filter((w) => tokenSet(`${target.goal} ${target.summary}`).has(w));
        if (shared.length > 0) say(`a paraphrase shares content words with its target: ${shared.join(', ')}`);
      }
    }
  }
  const count = (pred: (c: RoutingCase) => boolean) => cases.filter(pred).length;
  if (cases.length < MIN_CASES) problems.push(`only ${cases.length} cases (at least ${MIN_CASES})`);
  const chinese = count((c) => c.language.startsWith('zh'));
  if (chinese < MIN_CHINESE) problems.push(`only ${chinese} Chinese cases (at least ${MIN_CHINESE})`);
  for (const o of OUTCOMES) {
    const n = count((c) => c.expected.outcome === o);
    if (n < MIN_PER_OUTCOME) problems.push(`only ${n} cases expect "${o}" (at least ${MIN_PER_OUTCOME})`);
  }
  const paraphrases = count((c) => c.class === 'paraphrase');
  if (paraphrases < MIN_PARAPHRASES) problems.push(`only ${paraphrases} paraphrases (at least ${MIN_PARAPHRASES})`);
  return problems;
}

/** The label a card button shows (and sends back): the router numbers its task options (clarification-cards.ts). */
export const buttonLabel = (index: number, goal: string) => `${index + 1}. ${goal}`;
