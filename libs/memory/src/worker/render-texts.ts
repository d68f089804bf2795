import { parseMemoryText } from '../extraction';
import type { StandingMemory } from '../forgetting';

/**
 * An episode summary (article §7.1 "情境摘要"): what the person settled in one task, from the
 * memories its messages produced. Built from memory only, never from the agent's replies, so its
 * sources are exactly the evidence and versions it lists.
 */
export function renderEpisodeSummary(taskId: string, claims: readonly string[]): string | null {
  if (claims.length === 0) return null;
  return `In task ${taskId.slice(0, 8)} the person settled:\n${claims.map((c) => `- ${c}`).join('\n')}`;
}

/** The claims of standing memories whose texts are known (`texts` by blob hash, or a draft's own). */
export function claimsOf(memories: readonly StandingMemory[], texts: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const m of memories) {
    const text = m.draftText ?? (m.text === null ? undefined : texts.get(m.text.hash));
    if (text !== undefined) out.push(parseMemoryText(text).claim);
  }
  return out;
}
