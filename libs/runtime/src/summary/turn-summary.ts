import type { ExistingTurn } from '@lomo/domain';

/** About what the routing index shows per candidate; the contract allows up to 1 000. */
export const SUMMARY_MAX_CHARS = 300;
/** The goal's share, so the latest reply always has room. */
const CLAUSE_MAX_CHARS = 120;

// A sentence or clause end: ASCII . ! ? ; followed by a space or the end (so "v1.2" and
// "example.com" stay whole), a line break, or the full-width Chinese/Japanese forms.
const CLAUSE_END = /[.!?;](?=\s|$)|[\n。！？；]/u;

const collapse = (text: string) => text.replace(/\s+/gu, ' ').trim();

/** Cut to `max` characters (code points, so a Han character or an emoji is never split), with "…". */
function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** The goal up to its first sentence or clause end; the whole goal when it has none. */
export function firstClause(goal: string): string {
  const end = goal.search(CLAUSE_END);
  const clause = collapse(end > 0 ? goal.slice(0, end) : goal);
  return clip(clause.length > 0 ? clause : collapse(goal), CLAUSE_MAX_CHARS);
}

/** The last non-blank reply of the turn's committed steps (a step may only call tools). */
export function lastReplyOf(turn: ExistingTurn): string | null {
  for (let i = turn.steps.length - 1; i >= 0; i -= 1) {
    const reply = collapse(turn.steps[i].reply);
    if (reply.length > 0) return reply;
  }
  return null;
}

/**
 * The routing summary, derived without a model call: the goal's first clause (at most 120
 * characters), then " — " and the turn's last reply, the whole cut to 300 characters with "…".
 * Whitespace is collapsed. With no reply it is the clause alone. The same turn gives the same
 * summary, so writing it again is a no-op (libs/domain/src/task/decide-corrections.ts).
 */
export function summarizeTurn(goal: string, lastReply: string | null): string {
  const clause = firstClause(goal);
  const reply = lastReply === null ? '' : collapse(lastReply);
  return clip(reply.length > 0 ? `${clause} — ${reply}` : clause, SUMMARY_MAX_CHARS);
}
