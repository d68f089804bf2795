/**
 * What the plan policy reads of the task (README.md beside this file, "Plans", Context): the
 * `Task goal:` system message the runtime's context builder writes, with its `Task kind:` line
 * and its `Checklist:` lines. Tolerant: a line it cannot read is skipped, a suffix it does not
 * know is ignored, so the runtime can say more without breaking the demo.
 */
import type { ChatMessage } from '../model-provider.port';
import { OFFLINE_MEDIA_KINDS, type OfflineMediaKind } from './media-intent';

const STATUSES = ['pending', 'in_progress', 'done', 'blocked', 'skipped'] as const;
export type ItemStatus = (typeof STATUSES)[number];

/** The person's review of an item, as the ` {review: …}` suffix of its checklist line says. */
export type ReviewState =
  | { state: 'needed' | 'open' | 'approved' }
  | { state: 'chose'; option: string }
  | { state: 'adjust' | 'rejected'; note: string };

/** What an item delivers (checklist.plan's `output`), as the ` {output: …}` suffix says. */
export type ItemOutput =
  { kind: 'artifact' } | { kind: 'decision' } | { kind: 'media'; media: OfflineMediaKind; count: number };

export interface ChecklistLine {
  itemId: string;
  title: string;
  status: ItemStatus;
  review?: ReviewState;
  output?: ItemOutput;
  /** The artefacts linked to the item, in the order the line lists them (oldest link first). */
  artefacts?: string[];
}

export interface TaskContext {
  goal?: string;
  taskKind?: string;
  /** Undefined when the context has no `Checklist:` section. */
  checklist?: ChecklistLine[];
}

const ITEM_LINE = /^- \[([a-z_]+)\] ([a-z0-9][a-z0-9_-]*): (.*)$/;

function parseReview(text: string): ReviewState | undefined {
  const t = text.trim();
  const lower = t.toLowerCase();
  if (lower === 'needed' || lower === 'open' || lower === 'approved') return { state: lower };
  const chose = /^cho(?:se|sen)\s+(.+)$/i.exec(t);
  if (chose) return { state: 'chose', option: chose[1].trim() };
  const noted = /^(adjust|rejected)\s*:?\s*(.*)$/is.exec(t);
  if (noted) return { state: noted[1].toLowerCase() as 'adjust' | 'rejected', note: noted[2].trim() };
  return undefined;
}

/** `artifact`, `decision`, or `media <kind> x<count>` (no count: one). */
function parseOutput(text: string): ItemOutput | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'artifact' || t === 'artefact') return { kind: 'artifact' };
  if (t === 'decision') return { kind: 'decision' };
  const media = /^media\s+(\S+)(?:\s*[x×]\s*(\d+))?$/.exec(t);
  const kind = OFFLINE_MEDIA_KINDS.find((k) => k === media?.[1]);
  if (media === null || kind === undefined) return undefined;
  const count = media[2] === undefined ? 1 : Number(media[2]);
  return count >= 1 ? { kind: 'media', media: kind, count } : undefined;
}

/** Ids separated by commas or spaces. */
const parseIds = (text: string) => text.split(/[\s,]+/).filter((id) => id !== '');

const SUFFIX = /^\{([a-z_]+):\s*([\s\S]*)\}$/;

/** Where the suffix that closes `text` opens: at its matching brace, else at the last ` {name:`. */
function suffixStart(text: string): number {
  let depth = 0;
  for (let i = text.length - 1; i > 0; i -= 1) {
    if (text[i] === '}') depth += 1;
    else if (text[i] === '{') depth -= 1;
    if (depth === 0) {
      if (/\s/.test(text[i - 1]) && SUFFIX.test(text.slice(i))) return i;
      break;
    }
  }
  // Unbalanced braces in a note: the last opening that names a suffix.
  const openings = [...text.matchAll(/\s\{[a-z_]+:/g)];
  return (openings.at(-1)?.index ?? -2) + 1;
}

/**
 * Splits ` {name: value}` suffixes off the end of a line's text, right to left, any number in
 * any order. Braces are matched as pairs, so a note holding balanced braces stays whole; the
 * first closing part that is no `{name: …}` belongs to the title. A name given twice: the one
 * written first wins.
 */
export function splitSuffixes(text: string): { title: string; suffixes: Map<string, string> } {
  const suffixes = new Map<string, string>();
  let rest = text.trimEnd();
  while (rest.endsWith('}')) {
    const start = suffixStart(rest);
    const found = start > 0 ? SUFFIX.exec(rest.slice(start)) : null;
    if (found === null) break;
    suffixes.set(found[1], found[2].trim());
    rest = rest.slice(0, start).trimEnd();
  }
  return { title: rest.trim(), suffixes };
}

function parseItem(line: string): ChecklistLine | undefined {
  const found = ITEM_LINE.exec(line.trim());
  const status = STATUSES.find((s) => s === found?.[1]);
  if (found === null || status === undefined) return undefined;
  const { title, suffixes } = splitSuffixes(found[3]);
  const item: ChecklistLine = { itemId: found[2], title, status };
  const review = suffixes.has('review') ? parseReview(suffixes.get('review') ?? '') : undefined;
  const output = suffixes.has('output') ? parseOutput(suffixes.get('output') ?? '') : undefined;
  const artefacts = parseIds(suffixes.get('artefacts') ?? suffixes.get('artifacts') ?? '');
  if (review) item.review = review;
  if (output) item.output = output;
  if (artefacts.length > 0) item.artefacts = artefacts;
  return item;
}

/** The task's goal, kind and checklist, read from the `Task goal:` system message. */
export function parseTaskContext(messages: readonly ChatMessage[]): TaskContext {
  const system = messages.find((m) => m.role === 'system' && m.content.startsWith('Task goal:'));
  if (system === undefined) return {};
  const lines = system.content.split('\n');
  const context: TaskContext = { goal: lines[0].slice('Task goal:'.length).trim() };
  for (const line of lines) {
    const kind = /^Task kind:\s*(\S+)/.exec(line);
    if (kind) context.taskKind = kind[1];
  }
  const start = lines.indexOf('Checklist:');
  if (start < 0) return context;
  context.checklist = [];
  for (const line of lines.slice(start + 1)) {
    const item = parseItem(line);
    if (item !== undefined) context.checklist.push(item);
    else if (!line.startsWith('- [')) break;
  }
  return context;
}
