/**
 * The offline policy's plan rules (README.md beside this file, "Plans"): a brief of a known kind
 * (a video, a poster series, a storyboard for a film) is recorded, planned as a checklist and
 * worked one stage per turn; the runtime starts the next turn, and this policy reads the
 * checklist lines of the task's system message to pick the next ready stage. Only tool names,
 * tool results and the context's lines are read; it understands nothing.
 */
import type { ChatMessage, ModelToolCall, ToolSpec } from '../model-provider.port';
import { toTraditional } from './han-script';
import { pickMediaTool, type Intent } from './intents';
import type { OfflineLanguage } from './language';
import { PHRASES } from './phrases';
import { planKindOf, subjectOf } from './plan-kinds';
import { PLAN_PHRASES } from './plan-phrases';
import { itemDocument, mediaPrompt, PLANS, plannedItem, revisionSection, titleKey } from './plan-templates';
import { buildArguments } from './tool-arguments';
import { readToolResult } from './tool-result';
import { artifactOf, callsAfter, callsSinceLast } from './plan-calls';
import { parseTaskContext, type ChecklistLine } from './plan-context';
import { kindOfChecklist, nextWorkable, outputOf, planItemOffers, settled } from './plan-items';
import { mediaStep } from './plan-media';
import { REVISION_TOOLS, revisionStep } from './plan-revision';
import { loadStep, type DomainReach, type LoadableDomain } from './tool-domains';

export const PLAN_TOOLS = {
  brief: 'brief.update',
  plan: 'checklist.plan',
  update: 'checklist.update',
  write: 'document.write',
} as const;

// --- The step ----------------------------------------------------------------------------

export interface PlanInput {
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  /** The latest user message (-1 in a turn the runtime started: a continuation or an approval). */
  userIndex: number;
  userText: string;
  /** The user message's keyword intent (intents.ts): a delete or a note is no brief. */
  intent: Intent | undefined;
  language: OfflineLanguage;
  callId: string;
  /** What the step may load (tool-domains.ts): the documents may come with the checklist's stage. */
  reach: DomainReach;
}

export type PlanDecision = { text: string; toolCalls: ModelToolCall[] };

/**
 * The next step of a planned task, or undefined to leave it to the other rules: a first turn
 * records the brief and plans the checklist; every turn then works the next ready item (a
 * document, or one media call per shot), marks it done with evidence and ends with a summary.
 */
export function planStep(input: PlanInput): PlanDecision | undefined {
  const offered = (name: string) => input.tools.some((t) => t.name === name);
  // The documents are offered, or can be: a stage that writes one makes them visible (or a load does).
  const documents = offered(PLAN_TOOLS.write) || (input.reach.canLoad && input.reach.loadable.includes('document'));
  if (!offered(PLAN_TOOLS.plan) || !offered(PLAN_TOOLS.update) || !documents) return undefined;
  const context = parseTaskContext(input.messages);
  if (context.taskKind === 'lightweight') return undefined;
  const asked = input.userIndex >= 0;
  const briefKind =
    asked && (input.intent === undefined || input.intent === 'media' || input.intent === 'storyboard')
      ? planKindOf(input.userText)
      : undefined;
  const calls = callsAfter(input.messages, input.userIndex);
  const plannedHere = calls.some((c) => c.name === PLAN_TOOLS.plan);
  // A person's message that is no brief (a change, a question) is the other rules' business.
  if (asked && briefKind === undefined && !plannedHere) return undefined;
  if (!asked && context.checklist === undefined) return undefined;

  const phrases = PLAN_PHRASES[input.language];
  const chinese = input.language.startsWith('zh');
  const script = (text: string) => (input.language === 'zh-Hant' ? toTraditional(text) : text);
  const call = (name: string, args: Record<string, unknown>): PlanDecision => ({
    text: '',
    toolCalls: [{ id: input.callId, name, arguments: JSON.stringify(args) }],
  });
  const say = (text: string): PlanDecision => ({ text, toolCalls: [] });
  // A stage whose tool is not offered (an item that declares no output, so its domain is not the
  // stage's): load its domain, else say there is no such tool.
  const loadOr = (domain: LoadableDomain, intent: 'storyboard' | 'media'): PlanDecision =>
    loadStep([domain], input.reach, input.callId, input.language) ??
    say(PHRASES[input.language].noTool(PHRASES[input.language].intents[intent]));

  // After a result: a refusal is reported (no retry loop); a stage marked done is summarized. A
  // revision in place that cannot be made is no refusal: it falls back to a new document.
  const latest = calls.at(-1);
  const revising = latest?.name === REVISION_TOOLS.read || latest?.name === REVISION_TOOLS.edit;
  if (latest?.outcome !== undefined && !latest.outcome.ok && !latest.outcome.pending && !revising) {
    const { summary } = readToolResult(latest.outcome.content);
    return say(latest.name === PLAN_TOOLS.update ? phrases.refused(summary) : phrases.failed(latest.name, summary));
  }
  if (latest?.name === PLAN_TOOLS.update && latest.outcome?.ok === true && latest.args.status === 'done') {
    return say(stageSummary(String(latest.args.itemId), context.checklist ?? [], input.tools, phrases));
  }

  const kind = briefKind ?? kindOfChecklist(context.checklist ?? []) ?? planKindOf(context.goal ?? '') ?? 'video';
  const subject = script(subjectOf(context.goal ?? input.userText, kind, chinese));

  // A first turn: the brief, then the plan.
  if (context.checklist === undefined) {
    if (briefKind === undefined) return say(phrases.nothingReady);
    const titles = PLANS[briefKind].map((i) => script(i.titles[titleKey(input.language)]));
    if (offered(PLAN_TOOLS.brief) && !calls.some((c) => c.name === PLAN_TOOLS.brief))
      return call(PLAN_TOOLS.brief, { brief: script(phrases.brief(briefKind, subject, titles)) });
    if (plannedHere) return say(phrases.nothingReady);
    const confirmation = planItemOffers(input.tools, PLAN_TOOLS.plan, 'needsConfirmation');
    const outputs = planItemOffers(input.tools, PLAN_TOOLS.plan, 'output');
    return call(PLAN_TOOLS.plan, {
      items: PLANS[briefKind].map((item, i) => ({
        itemId: item.itemId,
        title: titles[i],
        dependsOn: [...item.dependsOn],
        ...(confirmation && item.needsConfirmation ? { needsConfirmation: true } : {}),
        ...(outputs ? { output: { ...item.output } } : {}),
      })),
    });
  }

  const item = nextWorkable(context.checklist);
  if (item === undefined) return say(statusLine(context.checklist, phrases));
  // What this turn did for the item: everything since the last checklist.update.
  const sinceUpdate = callsSinceLast(calls, PLAN_TOOLS.update);
  const markDone = (evidence: Record<string, unknown>) =>
    call(PLAN_TOOLS.update, { itemId: item.itemId, status: 'done', evidence });

  const output = outputOf(item);
  // The person's decision on a review card: the runtime opens the card, the policy waits for it.
  if (output.kind === 'decision') return say(phrases.waitingReview(item.title));
  if (output.kind === 'artifact') {
    const written = sinceUpdate
      .filter((c) => c.name === PLAN_TOOLS.write && c.outcome?.ok === true)
      .map((c) => artifactOf(c.outcome))
      .find((a) => a !== undefined);
    if (written !== undefined)
      return markDone({ kind: 'artifact_version', artifactId: written.artifactId, version: written.version });
    const note =
      item.status === 'in_progress' && item.review?.state === 'adjust' && item.review.note !== ''
        ? item.review.note
        : undefined;
    // Sent back with a note: revise the document linked to the item (the latest link) in place.
    const target = item.artefacts?.at(-1);
    if (note !== undefined && target !== undefined && offered(REVISION_TOOLS.read) && offered(REVISION_TOOLS.edit)) {
      const revision = revisionStep(target, script(revisionSection(note, chinese)), sinceUpdate);
      if (revision.kind === 'call') return call(revision.name, revision.args);
      if (revision.kind === 'done')
        return markDone({ kind: 'artifact_version', artifactId: revision.artifactId, version: revision.version });
    }
    if (!offered(PLAN_TOOLS.write)) return loadOr('document', 'storyboard');
    const document = itemDocument(item.itemId, item.title, subject, chinese, note);
    return call(PLAN_TOOLS.write, { title: script(document.title), text: script(document.text) });
  }

  // A media item: one generation call per shot (poster), then done with every completed job.
  const tool = pickMediaTool(input.tools, output.media);
  if (tool === undefined) return loadOr(output.media, 'media');
  const media = mediaStep(output.count, tool.name, callsAfter(input.messages, -1), PLAN_TOOLS.update);
  switch (media.kind) {
    case 'call': {
      const prompt = script(mediaPrompt(item.itemId, media.index, subject, chinese));
      return call(
        tool.name,
        buildArguments(tool.parameters, { payload: prompt, idCandidates: () => [], fillOptionalIds: false }),
      );
    }
    case 'pending':
      return say(PHRASES[input.language].mediaPending(output.media));
    case 'done':
      return markDone(media.evidence);
    case 'none':
      return say(phrases.nothingReady);
  }
}

type Phrases = (typeof PLAN_PHRASES)[OfflineLanguage];

/** The one line after a stage: what is done and what comes next (or that the person reviews it). */
function stageSummary(
  itemId: string,
  checklist: readonly ChecklistLine[],
  tools: readonly ToolSpec[],
  phrases: Phrases,
): string {
  const done = checklist.find((i) => i.itemId === itemId);
  const title = done?.title ?? itemId;
  const index = checklist.findIndex((i) => i.itemId === itemId);
  const next = checklist.slice(index + 1).find((i) => i.status !== 'done' && i.status !== 'skipped');
  const reviewed =
    done?.review !== undefined
      ? done.review.state !== 'approved' && done.review.state !== 'chose'
      : !checklist.some((i) => i.review !== undefined) &&
        plannedItem(itemId)?.needsConfirmation === true &&
        planItemOffers(tools, PLAN_TOOLS.plan, 'needsConfirmation');
  if (reviewed) return phrases.doneReview(title, next?.title);
  if (next !== undefined) return phrases.doneNext(title, next.title);
  return phrases.doneAll(title);
}

/** Nothing can be worked on: what it waits for. */
function statusLine(checklist: readonly ChecklistLine[], phrases: Phrases): string {
  const review = checklist.find((i) => i.status === 'done' && !settled(i));
  if (review !== undefined) return phrases.waitingReview(review.title);
  const blocked = checklist.find((i) => i.status === 'blocked');
  if (blocked !== undefined) return phrases.blocked(blocked.title);
  if (checklist.every((i) => i.status === 'done' || i.status === 'skipped')) return phrases.complete;
  return phrases.nothingReady;
}
