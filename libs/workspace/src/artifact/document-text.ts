import { createHash } from 'node:crypto';

export interface SnippetEditInput {
  old: string;
  new: string;
}

export type SnippetFailure = { index: number; reason: 'not_found' | 'not_unique' };

export type SnippetPlan =
  | {
      ok: true;
      text: string;
      textHash: string;
      textBytes: number;
      /** The patch blob's content: the `old` → `new` pairs as JSON, in request order. */
      patch: string;
      patchHash: string;
      patchBytes: number;
      summary: string;
    }
  | { ok: false; failed: SnippetFailure[] }
  | { ok: false; overlapping: [number, number] };

export const PATCH_CONTENT_TYPE = 'application/json';

export const sha256Hex = (content: string): string => createHash('sha256').update(content, 'utf8').digest('hex');
export const utf8Bytes = (content: string): number => Buffer.byteLength(content, 'utf8');

/** The patch blob of a snippet edit; the same edits always give the same bytes (and hash). */
export const serializePatch = (edits: readonly SnippetEditInput[]): string =>
  JSON.stringify({ edits: edits.map((e) => ({ old: e.old, new: e.new })) });

/**
 * Where each snippet sits, or why it cannot: each `old` must occur exactly once (an overlapping
 * second occurrence counts), and no two snippets may overlap each other.
 */
function locate(
  text: string,
  edits: readonly SnippetEditInput[],
): { at: Array<{ start: number; index: number }> } | { failed: SnippetFailure[] } | { overlapping: [number, number] } {
  const failed: SnippetFailure[] = [];
  const at: Array<{ start: number; index: number }> = [];
  edits.forEach((edit, index) => {
    const start = edit.old.length === 0 ? -1 : text.indexOf(edit.old);
    if (start === -1) failed.push({ index, reason: 'not_found' });
    else if (text.indexOf(edit.old, start + 1) !== -1) failed.push({ index, reason: 'not_unique' });
    else at.push({ start, index });
  });
  if (failed.length > 0) return { failed };
  at.sort((a, b) => a.start - b.start);
  for (let i = 1; i < at.length; i += 1) {
    const before = at[i - 1];
    if (before.start + edits[before.index].old.length > at[i].start)
      return { overlapping: [before.index, at[i].index] };
  }
  return { at };
}

/** Replaces each located snippet (in text order, as `locate` gives them) by its `new`. */
function splice(
  text: string,
  edits: readonly SnippetEditInput[],
  at: ReadonlyArray<{ start: number; index: number }>,
): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const { start, index } of at) {
    parts.push(text.slice(cursor, start), edits[index].new);
    cursor = start + edits[index].old.length;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

/** Applies snippets all-or-nothing; undefined when one does not hold (see `locate`). */
export function applySnippets(text: string, edits: readonly SnippetEditInput[]): string | undefined {
  const located = locate(text, edits);
  return 'at' in located ? splice(text, edits, located.at) : undefined;
}

/** Replays a stored patch blob on the text it was made against. */
export function replayPatch(text: string, patch: string): string {
  const parsed = JSON.parse(patch) as { edits: SnippetEditInput[] };
  const next = applySnippets(text, parsed.edits);
  if (next === undefined) throw new Error('A stored patch does not apply to the text it was recorded against');
  return next;
}

// The decider plans an edit and the runner then needs the same plan's text and patch to write
// the blobs: one remembered call (by identity of the inputs) spares hashing a large text twice.
// The function stays pure: the same inputs give the same plan either way.
let remembered: { text: string; edits: readonly SnippetEditInput[]; plan: SnippetPlan } | undefined;

export function planSnippets(text: string, edits: readonly SnippetEditInput[]): SnippetPlan {
  if (remembered !== undefined && remembered.text === text && remembered.edits === edits) return remembered.plan;
  const plan = computePlan(text, edits);
  remembered = { text, edits, plan };
  return plan;
}

function computePlan(text: string, edits: readonly SnippetEditInput[]): SnippetPlan {
  const located = locate(text, edits);
  if ('failed' in located) return { ok: false, failed: located.failed };
  if ('overlapping' in located) return { ok: false, overlapping: located.overlapping };
  // Located once: each search scans the whole text, and the plan already knows where they sit.
  const next = splice(text, edits, located.at);
  const patch = serializePatch(edits);
  const added = edits.reduce((n, e) => n + e.new.length, 0);
  const removed = edits.reduce((n, e) => n + e.old.length, 0);
  return {
    ok: true,
    text: next,
    textHash: sha256Hex(next),
    textBytes: utf8Bytes(next),
    patch,
    patchHash: sha256Hex(patch),
    patchBytes: utf8Bytes(patch),
    summary: `${edits.length} snippet${edits.length === 1 ? '' : 's'}, +${added} −${removed} chars`,
  };
}
