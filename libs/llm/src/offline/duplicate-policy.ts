/**
 * The offline model's demo duplicate check: a DEMO STAND-IN, NOT A MODEL. It answers the
 * router's `check_duplicate` structured call (a DuplicatePrompt in, a DuplicateAnswer out):
 * each candidate scores the share of the new goal's content tokens (without the routing policy's
 * generic words: "please take a note: …" goals are not alike for their shared verbs) found in the
 * candidate's goal. Best ≥ `reuseThreshold` and more than `askMargin` above the second → `reuse` it; best and
 * second both ≥ `reuseThreshold` within the margin → `ask`; otherwise `new`.
 */
import type { DuplicateAnswer, DuplicatePrompt } from '@lomo/contracts';
import { overlap } from '@lomo/text';
import { contentTokens } from './routing-policy';

export const DUPLICATE_POLICY = {
  reuseThreshold: 0.5,
  askMargin: 0.15,
} as const;

export function checkDuplicateOffline(prompt: DuplicatePrompt): DuplicateAnswer {
  const goal = contentTokens(prompt.goal);
  const ranked = prompt.candidates
    .map((c) => ({ ref: c.ref, score: overlap(goal, contentTokens(c.goal)) }))
    .sort((a, b) => b.score - a.score);
  const [best, second] = ranked;
  if (!best || best.score < DUPLICATE_POLICY.reuseThreshold) return { verdict: 'new', taskRef: null };
  if (
    second &&
    second.score >= DUPLICATE_POLICY.reuseThreshold &&
    best.score - second.score <= DUPLICATE_POLICY.askMargin
  ) {
    return { verdict: 'ask', taskRef: null };
  }
  return { verdict: 'reuse', taskRef: best.ref };
}
