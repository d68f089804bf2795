import { deterministicUuid } from '@lomo/contracts';
import type { Constraint, ExistingTask } from '@lomo/domain';

/**
 * The person's constraints, read from their own words by documented rules (README "Context"):
 * a sentence that says what something is or must be ("the background is white", "the logo
 * should be small", "make the title red", "use serif for the headline", "背景是白色") is a
 * constraint on that subject; a correction that names no subject ("make it dark blue", "change
 * it to green", "改成深蓝") is about the subject of the latest constraint in force. A new
 * constraint on a subject replaces the one in force, which is withdrawn: it stops reaching
 * prompts, raw history and summaries alike (article §6.3: an invalidated constraint must not
 * keep influencing steps). These rules are lexical, not understanding; a configured model's
 * own reading is not wired in yet.
 */

export interface NotedConstraint {
  constraintId: string;
  subject: string;
  statement: string;
  replaces?: string;
}

const PRONOUNS = new Set([
  'it',
  'this',
  'that',
  'they',
  'them',
  'those',
  'these',
  '它',
  '这个',
  '這個',
  '那个',
  '那個',
]);
const NOT_SUBJECTS = new Set([
  'there',
  'what',
  'who',
  'which',
  'here',
  'i',
  'you',
  'we',
  'he',
  'she',
  'everything',
  'all',
]);
const ARTICLES = /^(?:the|a|an|my|our|your|its)\s+/iu;

const SENTENCES = /[^.!?;。！？；\n]+[.!?;。！？；]?/gu;

interface Match {
  subject: string;
  statement: string;
}

/** Words that lead a sentence without being its subject ("Actually, the title is green"). */
const LEAD = /^(?:(?:hmm+|ok|okay|so|no|actually|and|but|also|please|now|well|then|oh)[,!.]?\s+)+/iu;
/** "the background is white", "the logo should be small": subject before the verb. */
const IS =
  /^((?:the|a|an|my|our|your)\s+)?([a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2})\s+(?:is|are|should be|must be|has to be|needs to be|will be)\s+\S/iu;
/**
 * "make the title red", "make it dark blue", "keep the logo small": only of a definite subject
 * ("make a poster" asks for something new; it constrains nothing).
 */
const MAKE = /^(?:make|keep|paint|turn)\s+(?:(it|this|that)|(?:the|my|our|your)\s+([a-z][a-z-]*))\s+\S/iu;
/** "change the background to green", "switch it to serif". */
const CHANGE =
  /^(?:change|switch|set)\s+(?:(it|this|that)|(?:the|my|our|your)\s+([a-z][a-z-]*(?:\s+[a-z][a-z-]*)?))\s+(?:to|into)\s+\S/iu;
/** "use serif for the headline". */
const USE_FOR = /^use\s+.+?\s+for\s+(?:the\s+|my\s+|our\s+)?([a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)\s*[.!?;]?$/iu;
/** "背景是白色", "把背景改成深蓝", "改成深蓝" (no subject: a correction of the latest). */
const HAN_IS = /^(?:把)?([\p{Script=Han}]{1,6}?)(?:是|要|用|改成|改为|改為|换成|換成)[\p{Script=Han}\p{L}\p{N}]/u;
const HAN_BARE = /^(?:请|請)?(?:改成|改为|改為|换成|換成)[\p{Script=Han}\p{L}\p{N}]/u;

function matchSentence(sentence: string): Match | undefined {
  const text = sentence.trim();
  if (text.length === 0 || text.endsWith('?') || text.endsWith('？')) return undefined;
  const statement = text.replace(/[.;。；]$/u, '');
  const core = statement.replace(LEAD, '');
  for (const pattern of [CHANGE, MAKE]) {
    const found = pattern.exec(core);
    if (found) return { subject: normalize(found[1] ?? found[2]), statement };
  }
  const is = IS.exec(core);
  if (is) return { subject: normalize(is[2]), statement };
  const useFor = USE_FOR.exec(core);
  if (useFor) return { subject: normalize(useFor[1]), statement };
  if (HAN_BARE.test(statement)) return { subject: 'it', statement };
  const han = HAN_IS.exec(statement);
  if (han) return { subject: han[1], statement };
  return undefined;
}

/** Kinds of values a correction without a subject must share with what it corrects. */
const VALUE_KINDS: ReadonlyArray<RegExp> = [
  /\b(?:white|black|red|blue|green|yellow|orange|purple|violet|pink|gr[ae]y|brown|gold(?:en)?|silver|navy|teal|beige|cream|dark|light|pastel)\b|[白黑红紅蓝藍绿綠黄黃灰紫粉金银銀棕]|深色|浅色|淺色/iu,
  /\b(?:small|smaller|big|bigger|large|larger|tiny|huge|wide|narrow)\b|[大小]/iu,
  /\b(?:short|shorter|long|longer|brief)\b|[长長短]/iu,
  /\b(?:serif|sans|sans-serif|bold|italic|script|handwritten|monospace)\b|字体|字體/iu,
];

/** Both statements name a value of one known kind, or the corrected one names none known. */
function sameKindOfValue(corrected: string, correction: string): boolean {
  const kinds = VALUE_KINDS.filter((k) => k.test(corrected));
  return kinds.length === 0 || kinds.some((k) => k.test(correction));
}

function normalize(subject: string): string {
  return subject.toLowerCase().replace(ARTICLES, '').trim();
}

/** Constraints still in force, latest last. */
export function constraintsInForce(
  task: Pick<ExistingTask, 'constraints'> & Partial<Pick<ExistingTask, 'excluded'>>,
): Constraint[] {
  // A constraint read from a message the person asked to forget goes with it (ContextExcluded).
  const forgotten = new Set(task.excluded?.messageIds ?? []);
  return Object.values(task.constraints).filter((c) => c.withdrawnBy === null && !forgotten.has(c.itemId));
}

/**
 * The constraints one claimed message states, with what each replaces. Ids derive from the item
 * and the sentence's position, so a takeover that claims the same item notes the same ids.
 */
export function extractConstraints(
  task: Pick<ExistingTask, 'constraints'>,
  itemId: string,
  text: string,
): NotedConstraint[] {
  const inForce = constraintsInForce(task);
  const noted: NotedConstraint[] = [];
  const sentences = text.match(SENTENCES) ?? [];
  sentences.forEach((sentence, index) => {
    const found = matchSentence(sentence);
    if (found === undefined || NOT_SUBJECTS.has(found.subject)) return;
    let subject = found.subject;
    if (PRONOUNS.has(subject)) {
      // A correction without its subject: the latest constraint stated, here or before, when
      // the new words are the same kind of value ("make it dark blue" after a colour; "make it
      // longer" corrects no colour).
      const latest = noted.at(-1) ?? inForce.at(-1);
      if (latest === undefined || !sameKindOfValue(latest.statement, found.statement)) return;
      subject = latest.subject;
    }
    const statement = found.statement.slice(0, 2000);
    const constraintId = deterministicUuid('lomo.runtime.constraint', itemId, String(index));
    const earlierHere = noted.findIndex((c) => c.subject === subject);
    if (earlierHere >= 0) {
      // The same message says it twice: the later sentence stands.
      const replaces = noted[earlierHere].replaces;
      noted.splice(earlierHere, 1);
      noted.push({ constraintId, subject, statement, ...(replaces !== undefined ? { replaces } : {}) });
      return;
    }
    const replaced = [...inForce].reverse().find((c) => c.subject === subject);
    noted.push({
      constraintId,
      subject,
      statement,
      ...(replaced !== undefined ? { replaces: replaced.constraintId } : {}),
    });
  });
  return noted.slice(0, 50);
}

/**
 * A person's message as later prompts show it: every statement of a withdrawn constraint from
 * this message is replaced by a marker, so an invalidated constraint stops influencing steps
 * (the events keep the words; the prompt does not repeat them).
 */
export function withoutWithdrawn(task: Pick<ExistingTask, 'constraints'>, itemId: string, text: string): string {
  let shown = text;
  for (const c of Object.values(task.constraints))
    if (c.itemId === itemId && c.withdrawnBy !== null)
      shown = shown.split(c.statement).join('[changed later; see the constraints in force]');
  return shown;
}

/** Every statement withdrawn so far: what summaries must not repeat. */
export function withdrawnStatements(task: Pick<ExistingTask, 'constraints'>): string[] {
  return Object.values(task.constraints)
    .filter((c) => c.withdrawnBy !== null)
    .map((c) => c.statement);
}
