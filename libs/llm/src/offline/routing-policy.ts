/**
 * The offline model's demo routing policy: a DEMO STAND-IN, NOT A MODEL. It answers the router's
 * `route_message` structured call (a RoutingPrompt in, a RoutingAnswer out) by simple lexical
 * rules, so `npm start` shows routing working with no network. The rules, first that applies
 * wins (word lists in word-lists.ts, thresholds in ROUTING_POLICY):
 *
 * 1. Pending clarification: when one option's label shares at least `optionMatch` of its tokens
 *    with the message (or the message is just the option's number, 1-based), that option is the
 *    answer: its task → `existing`, no task ("start a new one") → `new` with the message as goal.
 * 2. Greeting or thanks with no making verb → `main`, a short reply in the person's language.
 * 3. Content match: each candidate scores the share of the message's content tokens (@lomo/text
 *    tokens minus the policy's generic words) found in its goal + summary. Unless the message asks
 *    for something new ("another", 新): best ≥ `matchThreshold` (≥ `newObjectMatch` when a making
 *    verb introduces a new object: "design a …", 做一张) and more than `clarifyMargin`
 *    above the second → `existing`; best ≥ `matchThreshold` with the second within the margin →
 *    `clarify` (question in the person's language).
 * 4. A reference back in time ("again", 再, "the last", "from last time", 上次) with a partial
 *    content match below the threshold, the best more than `clarifyMargin` above the second →
 *    `existing`: that task, even beside a making verb ("make the posters from last time warmer").
 *    With no content match, a deictic follow-up ("it", "that one", 它, 这个, unless beside a
 *    one-shot object or a series word; back-references always) → `existing`: the
 *    `recent_decision` candidate, else the most recently active one. Either way the score is
 *    raised to `deicticScore` so the router's margin guard sees it clearly ahead.
 * 5. A question with no making verb → `main`: what the demo can do.
 * 6. A making verb: a series or multi-step mark (campaign, series, plan, 系列, 套, 计划) or more
 *    than `longMessageTokens` tokens → `new`; a one-shot object (one image, a quick translation,
 *    一张图) → `lightweight`; otherwise → `new`. The goal is the message text, trimmed.
 * 7. Anything else: with candidates, `clarify` (which task?); with none, `main`.
 * `scores` always lists every candidate with its content score (rounded to 0.01).
 */
import type { RoutingAnswer, RoutingPrompt, RoutingPromptCandidate } from '@lomo/contracts';
import { overlap, tokenSet } from '@lomo/text';
import { replyLanguage } from './language';
import { routerPhrase } from './router-phrases';
import {
  AGAIN,
  BACK_REFERENCES,
  CAPABILITY_WORDS,
  DEICTICS,
  GREETINGS,
  INDEFINITES,
  MAKING_VERBS,
  mentions,
  MODIFIERS,
  NEW_MARKERS,
  ONE_SHOT_OBJECTS,
  QUESTION_WORDS,
  SERIES_MARKERS,
  THANKS,
  wordsOf,
  type WordList,
} from './word-lists';

export const ROUTING_POLICY = {
  /** Least content score for a follow-up to go to an existing task. */
  matchThreshold: 0.34,
  /** Two best candidates closer than this → ask instead of guessing. */
  clarifyMargin: 0.15,
  /** Share of an option label's tokens the message must contain to answer a clarification. */
  optionMatch: 0.5,
  /** Least content score for a follow-up when a making verb introduces a new object ("design a …"). */
  newObjectMatch: 0.67,
  /** The score given to the task a deictic follow-up goes to. */
  deicticScore: 0.6,
  /** Messages with more tokens than this are multi-step goals. */
  longMessageTokens: 16,
} as const;

type Score = RoutingAnswer['scores'][number];

const answer = (partial: Partial<RoutingAnswer> & Pick<RoutingAnswer, 'outcome' | 'scores'>): RoutingAnswer => ({
  taskRef: null,
  reply: null,
  goal: null,
  question: null,
  ...partial,
});

const round = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 100) / 100;

// The policy's own generic words say how to route, not what the work is about; they are cut out
// of the message before tokenizing, so Han bigrams across them do not count either.
export const GENERIC_LISTS: readonly WordList[] = [
  GREETINGS,
  THANKS,
  MAKING_VERBS,
  DEICTICS,
  AGAIN,
  BACK_REFERENCES,
  NEW_MARKERS,
  QUESTION_WORDS,
  CAPABILITY_WORDS,
  MODIFIERS,
];
/**
 * A tokenizer that cuts the words of `lists` out of a text first (Latin as whole words, Han as
 * substrings), so neither they nor Han bigrams across them count.
 */
export function tokensWithout(lists: readonly WordList[]): (text: string) => Set<string> {
  const latin = new Set(lists.flatMap((l) => l.latin));
  const han = [...new Set(lists.flatMap((l) => l.han))].sort((a, b) => b.length - a.length);
  return (text) => {
    let rest = text.normalize('NFKC').toLowerCase();
    for (const h of han) rest = rest.split(h).join(' ');
    const words = rest.split(/([\p{L}\p{N}][\p{L}\p{N}\p{M}'’-]*)/u);
    return tokenSet(words.map((w) => (latin.has(w) ? ' ' : w)).join(''));
  };
}

/** The tokens of a text without the policy's own generic words. */
export const contentTokens = tokensWithout(GENERIC_LISTS);

/** Each candidate's content score: share of the message's content tokens in its goal + summary. */
export function scoreCandidates(text: string, candidates: readonly RoutingPromptCandidate[]): Score[] {
  const query = contentTokens(text);
  return candidates.map((c) => ({
    ref: c.ref,
    score: round(overlap(query, tokenSet(`${c.goal} ${c.summary ?? ''}`))),
  }));
}

function answerToClarification(prompt: RoutingPrompt, scores: Score[]): RoutingAnswer | undefined {
  const pending = prompt.pendingClarification;
  if (!pending || pending.options.length === 0) return undefined;
  const text = prompt.message.text.trim();
  const byNumber = /^\d{1,2}$/.test(text) ? pending.options[Number(text) - 1] : undefined;
  let chosen = byNumber;
  if (!chosen) {
    const message = tokenSet(text);
    const matches = pending.options
      .map((o) => ({ option: o, share: overlap(tokenSet(o.label), message) }))
      .filter((m) => m.share >= ROUTING_POLICY.optionMatch)
      .sort((a, b) => b.share - a.share);
    // Two options matched equally well: not an answer.
    if (matches.length === 0 || (matches.length > 1 && matches[0]!.share === matches[1]!.share)) return undefined;
    chosen = matches[0]!.option;
  }
  if (chosen.ref === null) return answer({ outcome: 'new', scores, goal: text });
  return answer({ outcome: 'existing', taskRef: chosen.ref, scores });
}

function mostRecent(candidates: readonly RoutingPromptCandidate[]): RoutingPromptCandidate | undefined {
  const decided = candidates.find((c) => c.source === 'recent_decision');
  if (decided) return decided;
  return [...candidates].sort((a, b) => Date.parse(b.lastActiveAt) - Date.parse(a.lastActiveAt))[0];
}

/** A making verb directly followed by an indefinite article or counter ("design a …", 做一张). */
function introducesNewObject(text: string, words: readonly string[]): boolean {
  for (let i = 0; i + 1 < words.length; i += 1) {
    if (MAKING_VERBS.latin.includes(words[i]!) && INDEFINITES.latin.includes(words[i + 1]!)) return true;
  }
  return MAKING_VERBS.han.some((verb) => INDEFINITES.han.some((counter) => text.includes(verb + counter)));
}

/** The demo policy's answer to a routing prompt; deterministic. */
export function routeOffline(prompt: RoutingPrompt): RoutingAnswer {
  const { text, language: tag } = prompt.message;
  const language = replyLanguage(tag);
  const words = wordsOf(text);
  const has = (list: WordList) => mentions(text, words, list);
  const scores = scoreCandidates(text, prompt.candidates);

  const answered = answerToClarification(prompt, scores);
  if (answered) return answered;

  const making = has(MAKING_VERBS);
  if (!making && (has(GREETINGS) || has(THANKS))) {
    return answer({ outcome: 'main', scores, reply: routerPhrase(has(THANKS) ? 'thanks' : 'greeting', language) });
  }

  const ranked = [...scores].sort((a, b) => b.score - a.score);
  const [best, second] = ranked;
  const needed = introducesNewObject(text, words) ? ROUTING_POLICY.newObjectMatch : ROUTING_POLICY.matchThreshold;
  if (best && best.score >= needed && !has(NEW_MARKERS)) {
    if (second && best.score - second.score <= ROUTING_POLICY.clarifyMargin) {
      return answer({ outcome: 'clarify', scores, question: routerPhrase('ambiguous', language) });
    }
    return answer({ outcome: 'existing', taskRef: best.ref, scores });
  }

  // A reference back in time that names part of one task's subject ("the posters from last
  // time"): the words say which work, the back-reference says it exists; a making verb beside
  // it ("make the posters from last time warmer") asks for a change, not a new task.
  const backInTime = has(AGAIN) || has(BACK_REFERENCES);
  if (backInTime && best && best.score > 0 && !has(NEW_MARKERS)) {
    if (!second || best.score - second.score > ROUTING_POLICY.clarifyMargin) {
      const raised = scores.map((s) =>
        s.ref === best.ref ? { ...s, score: Math.max(s.score, ROUTING_POLICY.deicticScore) } : s,
      );
      return answer({ outcome: 'existing', taskRef: best.ref, scores: raised });
    }
  }

  const oneShot = has(ONE_SHOT_OBJECTS);
  const series = has(SERIES_MARKERS);
  const deictic = backInTime || (has(DEICTICS) && !oneShot && !series);
  const noContentMatch = (best?.score ?? 0) === 0;
  if (deictic && noContentMatch && !has(NEW_MARKERS)) {
    const target = mostRecent(prompt.candidates);
    if (target) {
      const raised = scores.map((s) => (s.ref === target.ref ? { ...s, score: ROUTING_POLICY.deicticScore } : s));
      return answer({ outcome: 'existing', taskRef: target.ref, scores: raised });
    }
  }

  const question = /[?？]\s*$/.test(text) || has(QUESTION_WORDS);
  if (question && !making) return answer({ outcome: 'main', scores, reply: routerPhrase('capabilities', language) });

  if (making) {
    const goal = text.trim();
    const long = tokenSet(text).size > ROUTING_POLICY.longMessageTokens;
    if (!series && !long && oneShot) return answer({ outcome: 'lightweight', scores, goal });
    return answer({ outcome: 'new', scores, goal });
  }

  if (prompt.candidates.length > 0) {
    return answer({ outcome: 'clarify', scores, question: routerPhrase('whichTask', language) });
  }
  return answer({ outcome: 'main', scores, reply: routerPhrase('capabilities', language) });
}
