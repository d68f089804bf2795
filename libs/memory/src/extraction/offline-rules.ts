import type { MemoryCandidate } from './memory-candidate';
import { claimFor } from './offline-claims';
import { findValues, type FoundValue, type ValueKind } from './offline-lexicon';
import { has, MARKERS } from './offline-markers';
import type { CurrentMemory } from './current-memories';
import { toTraditional } from '@lomo/llm';

/** One clause of a message, as written (a substring of the evidence text, so it is its own quote). */
export interface Unit {
  text: string;
}

const SUBJECT_OF: Record<ValueKind, string> = {
  colour: 'style.colour',
  palette: 'style.palette',
  style: 'style.visual',
  ratio: 'output.aspect_ratio',
};

const isZh = (text: string) => /\p{Script=Han}/u.test(text);
const NEGATED = /\b(not|isn't|aren't|never)\b|不是|並非|并非|沒有|没有/iu;

/**
 * A palette word right before a colour is one value: "saturated red", 高飽和的紅色. The merged
 * value keeps the colour's kind, so it is a colour request with a modifier.
 */
function merged(text: string, values: FoundValue[]): FoundValue[] {
  const out: FoundValue[] = [];
  for (const v of values) {
    const prev = out.at(-1);
    const gap = prev === undefined ? '' : text.slice(prev.end, v.at);
    if (prev?.kind === 'palette' && v.kind === 'colour' && /^\s*(的|-)?\s*$/u.test(gap)) {
      out[out.length - 1] = {
        kind: 'colour',
        value: `${prev.value} ${v.value}`,
        surface: text.slice(prev.at, v.end),
        at: prev.at,
        end: v.end,
      };
    } else out.push(v);
  }
  return out;
}

/** What kind of value a standing memory holds ("blue with off-white" → colour). */
const familyOf = (m: CurrentMemory): ValueKind | undefined => findValues(m.value)[0]?.kind;

const holds = (m: CurrentMemory, value: string): boolean => toTraditional(m.value.toLowerCase()).includes(value);

/** Among matching memories, the brand's when the clause speaks of the brand, else the person's own. */
function pick(unit: Unit, targets: CurrentMemory[]): CurrentMemory | undefined {
  const brand = has('brand', unit.text);
  return targets.find((m) => m.subject.startsWith('brand.') === brand) ?? targets[0];
}

function candidate(
  unit: Unit,
  subject: string,
  value: FoundValue | { value: string; surface: string },
  options: Partial<Pick<MemoryCandidate, 'kind' | 'scope' | 'relation'>> = {},
): MemoryCandidate {
  const scope = options.scope ?? 'long_term';
  const zh = isZh(unit.text);
  return {
    subject,
    kind: options.kind ?? 'preference',
    scope,
    origin: 'explicit',
    relation: options.relation ?? 'states',
    claim: claimFor(subject, zh ? value.surface : value.value, zh, scope === 'task'),
    value: value.value,
    supports: unit.text,
  };
}

/** "that's wrong, it's green now", 不是藍色了，改成綠色: the new value on the memory it changes. */
function correction(unit: Unit, values: FoundValue[], standing: readonly CurrentMemory[]): MemoryCandidate | null {
  const explicit = standing.filter((m) => m.origin === 'explicit');
  const named = values.map((v) => ({ v, targets: explicit.filter((m) => holds(m, v.value)) }));
  const old = named.find((n) => n.targets.length > 0);
  const fresh = values.filter((v) => v !== old?.v).at(-1);
  if (fresh === undefined) return null;
  const target = old
    ? pick(unit, old.targets)
    : pick(
        unit,
        explicit.filter((m) => familyOf(m) === fresh.kind),
      );
  if (target === undefined) return null;
  return candidate(unit, target.subject, fresh, {
    kind: target.kind,
    scope: target.scope.kind,
    relation: 'corrects',
  });
}

/** "yes, blue is right", 對，藍色沒錯: the standing claim that holds the value, restated. */
function confirmation(unit: Unit, values: FoundValue[], standing: readonly CurrentMemory[]): MemoryCandidate | null {
  for (const v of values) {
    const target = pick(
      unit,
      standing.filter((m) => m.origin === 'explicit' && holds(m, v.value)),
    );
    if (target === undefined) continue;
    return {
      subject: target.subject,
      kind: target.kind,
      scope: target.scope.kind,
      origin: 'explicit',
      relation: 'confirms',
      claim: target.claim,
      value: target.value,
      supports: unit.text,
    };
  }
  return null;
}

/** "blue with off-white is softer", 藍色配米白色更柔和: narrows the memory that holds the first value. */
function refinement(unit: Unit, values: FoundValue[], standing: readonly CurrentMemory[]): MemoryCandidate | null {
  const [first, second] = values;
  if (first === undefined || second === undefined) return null;
  const value = { value: `${first.value} with ${second.value}`, surface: `${first.surface}配${second.surface}` };
  const target = pick(
    unit,
    standing.filter((m) => m.origin === 'explicit' && holds(m, first.value)),
  );
  if (target === undefined)
    return candidate(unit, 'style.colour.pairing', value, { scope: has('task', unit.text) ? 'task' : 'long_term' });
  return candidate(unit, target.subject, value, { kind: target.kind, scope: target.scope.kind, relation: 'refines' });
}

const scopeOf = (unit: Unit, byDefault: 'task' | 'long_term'): 'task' | 'long_term' =>
  has('longTerm', unit.text) ? 'long_term' : has('task', unit.text) ? 'task' : byDefault;

/** The value a preference is about: a style first (the most specific), else the first value. */
const mainValue = (values: FoundValue[]): FoundValue => values.find((v) => v.kind === 'style') ?? values[0]!;

function names(unit: Unit): MemoryCandidate[] {
  const out: MemoryCandidate[] = [];
  const person = MARKERS.personName.exec(unit.text);
  const personName = person?.slice(1).find((g) => g !== undefined);
  if (personName)
    out.push(candidate(unit, 'person.name', { value: personName, surface: personName }, { kind: 'fact' }));
  const brand = MARKERS.brandName.exec(unit.text);
  const brandName = brand?.slice(1).find((g) => g !== undefined);
  if (brandName) out.push(candidate(unit, 'brand.name', { value: brandName, surface: brandName }, { kind: 'fact' }));
  return out;
}

/**
 * The rules for one clause, first match wins (README "Offline extraction rules"): questions and
 * hypotheticals say nothing; then correction, confirmation, refinement, avoidance, the brand's
 * main colour, a preference, a request.
 */
export function unitCandidates(unit: Unit, standing: readonly CurrentMemory[]): MemoryCandidate[] {
  const text = unit.text;
  if (has('question', text) || has('hypothetical', text)) return [];
  const found = names(unit);
  if (found.length > 0) return found;
  const values = merged(text, findValues(text));
  if (values.length === 0) return [];
  const correcting = has('correction', text) && !has('task', text);
  if (correcting) {
    const c = correction(unit, values, standing);
    if (c) return [c];
  }
  if (has('confirmation', text) && !correcting) {
    const c = confirmation(unit, values, standing);
    if (c) return [c];
  }
  if (values.length >= 2 && has('refinementJoin', text) && has('comparative', text)) {
    const c = refinement(unit, values, standing);
    if (c) return [c];
  }
  if (has('avoidance', text)) {
    const imperative = !/\bI\b|我/u.test(text);
    return [candidate(unit, 'style.avoid', values[0]!, { scope: scopeOf(unit, imperative ? 'task' : 'long_term') })];
  }
  if (NEGATED.test(toTraditional(text))) return [];
  if (has('brandMainColour', text)) {
    const colour = values.find((v) => v.kind === 'colour');
    if (colour) return [candidate(unit, 'brand.colour.main', colour, { kind: 'fact' })];
  }
  if (has('preference', text)) {
    const v = mainValue(values);
    return [candidate(unit, SUBJECT_OF[v.kind], v, { scope: scopeOf(unit, 'long_term') })];
  }
  if (has('request', text)) {
    const v = mainValue(values);
    const scope = scopeOf(unit, 'task');
    if (scope === 'long_term' && v.kind === 'colour' && has('brand', text))
      return [candidate(unit, 'brand.colour.main', v, { kind: 'fact' })];
    return [candidate(unit, SUBJECT_OF[v.kind], v, { scope })];
  }
  return [];
}
