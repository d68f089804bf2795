import { deterministicUuid } from '@lomo/contracts';
import type { TaskState } from '@lomo/domain';
import { routerPhrase, type RouterPhraseKind } from '@lomo/llm';
import { clarifyCard, optionsFor, type CardOption } from './clarification-cards';
import { goalFrom, taskIdFor } from './routing-ids';
import type { PlannedRouting, RoutingStep } from './routing-step';
import type { CardOnLine, RouteCandidate, RoutingDecision, RoutingView } from './routing-view';

type Candidate = RoutingDecision['candidates'][number];

/**
 * The router as a pure planner (DESIGN.md §4 step 2): given what is known about a message, the
 * one next thing to do. Deterministic first — a card answer, an explicit task, a bound artefact —
 * never calling the model; then the semantic path: candidates, the model's structured answer,
 * the system's own guards (margin, target state, duplicates). Any failure of the model becomes a
 * question to the person: a message is never dropped and never guessed into a task.
 */
export function planRouting(view: RoutingView): RoutingStep {
  const answering = view.answering;
  if (answering !== undefined && answering.card.answer === undefined) {
    const option = chosenOption(answering, view.message.text);
    if (option !== undefined) return planCardChoice(view, answering, option);
  }
  if (view.message.target?.taskId !== undefined) return planExplicitTask(view, view.message.target.taskId);
  if (view.message.target?.artifactRef !== undefined) return planArtifact(view);
  return planSemantic(view);
}

const decided = (routing: PlannedRouting): RoutingStep => ({ kind: 'decided', routing });

/** A card button sends the option's label as the message text; a typed answer goes the semantic way. */
function chosenOption(card: CardOnLine, text: string): CardOption | undefined {
  return card.card.options.find((o) => o.label === text.trim());
}

function planCardChoice(view: RoutingView, card: CardOnLine, option: CardOption): RoutingStep {
  const answer = { cardId: card.cardId, optionId: option.optionId, fromRevision: card.askedRevision };
  const explicit = option.taskId === undefined ? [] : [explicitCandidate(option.taskId)];
  if (option.action === 'route' && option.taskId !== undefined) {
    const state = view.taskStates[option.taskId];
    if (state === undefined) return { kind: 'read-tasks', taskIds: [option.taskId] };
    const refusal = unavailable(state);
    if (refusal !== undefined) return targetUnavailable(view, option.taskId, state, refusal, explicit);
    return decided({
      decision: {
        outcome: 'existing',
        taskId: option.taskId,
        method: 'deterministic',
        candidates: explicit,
        reason: 'answered a clarification card',
        answersCardId: card.cardId,
      },
      answer,
      deliver: card.asked,
      ...pausedNote(view, state),
    });
  }
  // "Start a new one", or reopen a closed task as a new one carrying its goal forward.
  const taskId = taskIdFor(view.message.messageId);
  const closed = option.taskId === undefined ? undefined : view.taskStates[option.taskId];
  const goal =
    option.action === 'reopen' && closed !== undefined && closed.status !== 'none'
      ? goalFrom(`${closed.goal}\n${card.asked.text}`)
      : goalFrom(card.asked.text);
  return decided({
    decision: {
      outcome: 'new',
      taskId,
      method: 'deterministic',
      candidates: explicit,
      reason:
        option.action === 'reopen' ? `reopened task ${option.taskId} as a new task` : 'the person chose a new task',
      answersCardId: card.cardId,
    },
    answer,
    create: { kind: 'persistent', goal, language: card.asked.language },
    deliver: card.asked,
  });
}

const explicitCandidate = (taskId: string): Candidate => ({ taskId, score: 1, source: 'explicit' });

function planExplicitTask(view: RoutingView, taskId: string): RoutingStep {
  const state = view.explicitTask ?? { status: 'none' as const };
  const candidates = [explicitCandidate(taskId)];
  const refusal = unavailable(state);
  if (refusal !== undefined) return targetUnavailable(view, taskId, state, refusal, candidates);
  return deliverTo(view, taskId, state, 'deterministic', candidates, 'the message names its task');
}

function planArtifact(view: RoutingView): RoutingStep {
  const artifact = view.artifact;
  if (artifact === undefined) throw new Error('planRouting: the artefact binding was not looked up');
  const { binding } = artifact;
  if (binding.status !== 'bound') {
    const kind: RouterPhraseKind = binding.status === 'deleted' ? 'targetDeleted' : 'targetMissing';
    return decided(
      clarifyCard(view, {
        method: 'deterministic',
        candidates: [],
        reason: binding.status === 'deleted' ? 'target artefact is deleted' : 'target artefact not found',
        clarifyReason: 'target_unavailable',
        question: routerPhrase(kind, view.message.language),
        options: optionsFor(view, []),
      }),
    );
  }
  const candidates: Candidate[] = [{ taskId: binding.taskId, score: 1, source: 'artifact' }];
  const state = artifact.task ?? { status: 'none' as const };
  const refusal = unavailable(state);
  if (refusal !== undefined) return targetUnavailable(view, binding.taskId, state, refusal, candidates);
  return deliverTo(
    view,
    binding.taskId,
    state,
    'deterministic',
    candidates,
    'the message names an artefact of the task',
  );
}

type Refusal = 'targetMissing' | 'targetStopped' | 'targetCompleted' | 'targetArchived';

/** Whether a task takes messages: it exists here and is not stopped, completed or archived (a paused one does). */
function unavailable(state: TaskState): Refusal | undefined {
  switch (state.status) {
    case 'none':
      return 'targetMissing';
    case 'stopped':
      return 'targetStopped';
    case 'completed':
      return 'targetCompleted';
    case 'archived':
      return 'targetArchived';
    case 'active':
    case 'waiting':
    case 'paused':
      return undefined;
    default: {
      const never: never = state;
      return never;
    }
  }
}

/** A clear question in Main instead of a silent drop or a guess: reopen, start new, or pick another. */
function targetUnavailable(
  view: RoutingView,
  taskId: string,
  state: TaskState,
  refusal: Refusal,
  candidates: Candidate[],
): RoutingStep {
  const goal = state.status === 'none' ? undefined : state.goal;
  const reopen: CardOption[] =
    state.status === 'none'
      ? []
      : [{ optionId: 'reopen', label: routerPhrase('reopen', view.message.language), action: 'reopen', taskId }];
  return decided(
    clarifyCard(view, {
      method:
        candidates[0]?.source === 'explicit' || candidates[0]?.source === 'artifact' ? 'deterministic' : 'semantic',
      candidates,
      reason: state.status === 'none' ? 'target task not found' : `target task is ${state.status}`,
      clarifyReason: 'target_unavailable',
      question: routerPhrase(refusal, view.message.language, goal === undefined ? {} : { goal }),
      options: [
        ...reopen,
        ...optionsFor(
          view,
          (view.candidates ?? []).filter((c) => c.taskId !== taskId),
        ),
      ],
    }),
  );
}

function pausedNote(view: RoutingView, state: TaskState): Pick<PlannedRouting, 'reply'> {
  if (state.status !== 'paused') return {};
  return {
    reply: {
      text: routerPhrase('paused', view.message.language, { goal: state.goal }),
      language: view.message.language,
    },
  };
}

function deliverTo(
  view: RoutingView,
  taskId: string,
  state: TaskState,
  method: 'deterministic' | 'semantic',
  candidates: Candidate[],
  reason: string,
  extra: Partial<PlannedRouting> = {},
): RoutingStep {
  return decided({
    decision: { outcome: 'existing', taskId, method, candidates, reason, ...extra.decision },
    deliver: deliveryOf(view.message),
    ...pausedNote(view, state),
    ...upgradeIfRevised(view, state),
    ...withoutDecision(extra),
  });
}

function withoutDecision(extra: Partial<PlannedRouting>): Partial<PlannedRouting> {
  const { decision: _decision, ...rest } = extra;
  return rest;
}

/** A lightweight result the person keeps revising has become real work (article §2.2). */
function upgradeIfRevised(view: RoutingView, state: TaskState): Pick<PlannedRouting, 'upgrade'> {
  if (state.status === 'none' || state.kind !== 'lightweight') return {};
  const followUps = Object.values(state.inbox).filter((i) => i.messageId !== state.originMessageId).length;
  if (followUps + 1 < view.settings.upgradeAfterRevisions) return {};
  return { upgrade: { reason: `revised ${followUps + 1} times after the first result` } };
}

function planSemantic(view: RoutingView): RoutingStep {
  if (view.candidates === undefined) return { kind: 'retrieve-candidates', text: view.message.text };
  if (view.routingAnswer === undefined) return { kind: 'ask-model' };
  const answer = view.routingAnswer;
  const modelStep = {
    model: answer.model,
    attempts: answer.attempts,
    inputTokens: answer.usage.inputTokens,
    outputTokens: answer.usage.outputTokens,
    ...(answer.ok ? {} : { failure: answer.code }),
  };
  const candidates = scoredCandidates(view);
  const card = view.answering ?? view.openCard;
  if (!answer.ok) {
    return decided(
      clarifyCard(view, {
        method: 'semantic',
        candidates,
        modelStep,
        reason: answer.failure === 'invalid' ? 'the model answered invalidly twice' : 'the model is unavailable',
        clarifyReason: answer.failure === 'invalid' ? 'invalid_answer' : 'model_unavailable',
        question: routerPhrase(answer.failure === 'invalid' ? 'whichTask' : 'modelUnavailable', view.message.language),
        options: optionsFor(view, view.candidates),
      }),
    );
  }
  const value = answer.value;
  switch (value.outcome) {
    case 'main':
      return decided({
        decision: { outcome: 'main', taskId: null, method: 'semantic', candidates, modelStep },
        reply: {
          text: nonBlank(value.reply) ?? routerPhrase('greeting', view.message.language),
          language: view.message.language,
        },
      });
    case 'clarify':
      return decided(
        clarifyCard(view, {
          method: 'semantic',
          candidates,
          modelStep,
          reason: 'the model asked',
          clarifyReason: 'model_asked',
          question: nonBlank(value.question) ?? routerPhrase('whichTask', view.message.language),
          options: optionsFor(view, rankedByModel(view)),
        }),
      );
    case 'existing':
      return planChosenTask(view, candidates, modelStep, card);
    case 'lightweight':
      return decided({
        decision: {
          outcome: 'lightweight',
          taskId: taskIdFor(view.message.messageId),
          method: 'semantic',
          candidates,
          modelStep,
        },
        create: {
          kind: 'lightweight',
          goal: goalFrom(nonBlank(value.goal) ?? view.message.text),
          language: view.message.language,
        },
        deliver: deliveryOf(view.message),
      });
    case 'new':
      return planNewTask(view, candidates, modelStep, nonBlank(value.goal));
    default: {
      const never: never = value.outcome;
      return never;
    }
  }
}

type ModelStep = NonNullable<RoutingDecision['modelStep']>;

function planChosenTask(
  view: RoutingView,
  candidates: Candidate[],
  modelStep: ModelStep,
  card: CardOnLine | undefined,
): RoutingStep {
  const answer = view.routingAnswer;
  if (answer === undefined || !answer.ok) throw new Error('planChosenTask: no model answer');
  const taskId = answer.value.taskRef === null ? undefined : answer.refs.get(answer.value.taskRef);
  if (taskId === undefined)
    return decided(
      clarifyCard(view, {
        method: 'semantic',
        candidates,
        modelStep,
        reason: 'the model chose a task that was not among the candidates',
        clarifyReason: 'invalid_answer',
        question: routerPhrase('whichTask', view.message.language),
        options: optionsFor(view, view.candidates ?? []),
      }),
    );
  const close = tooClose(view, taskId);
  if (close !== undefined)
    return decided(
      clarifyCard(view, {
        method: 'semantic',
        candidates,
        modelStep,
        reason: `two candidates are within the ambiguity margin (${close})`,
        clarifyReason: 'ambiguous',
        question: routerPhrase('ambiguous', view.message.language),
        options: optionsFor(view, rankedByEvidence(view)),
      }),
    );
  const state = view.taskStates[taskId];
  if (state === undefined) return { kind: 'read-tasks', taskIds: [taskId] };
  const refusal = unavailable(state);
  if (refusal !== undefined) return targetUnavailable(view, taskId, state, refusal, candidates);
  const resolves = card !== undefined && resolvesCard(card, taskId, view.answering !== undefined);
  const extra: Partial<PlannedRouting> =
    resolves && card !== undefined
      ? {
          answer: { cardId: card.cardId, text: view.message.text, fromRevision: card.askedRevision },
          // The card asked about another message: that one goes to the task; this one only answered.
          ...(card.asked.messageId === view.message.messageId ? {} : { deliver: card.asked }),
          decision: { ...base(), answersCardId: card.cardId },
        }
      : {};
  return deliverTo(view, taskId, state, 'semantic', candidates, 'the model chose a candidate', extra);

  function base(): PlannedRouting['decision'] {
    return { outcome: 'existing', taskId: taskId!, method: 'semantic', candidates, modelStep };
  }
}

/** A typed answer to the card resolves it when it picked one of the card's tasks (or it was an explicit answer). */
function resolvesCard(card: CardOnLine, taskId: string, explicitAnswer: boolean): boolean {
  if (card.card.answer !== undefined) return false;
  return explicitAnswer || card.card.options.some((o) => o.taskId === taskId);
}

/**
 * The margin guard (article §3.3, asking beats picking the most plausible task): when the model
 * picks a task but the two best candidates are too close — by the model's own scores, or by the
 * router's evidence when both have some — the router asks. Evidence below the floor does not
 * count: with no lexical trace of either task (a paraphrase), the model's reading stands.
 * Gaps and floors are compared at the precision the decision records (`round`), not in binary
 * floating point: the newest decision's recency (0.35) against an older one's (0.2) is a gap of
 * exactly the margin, which 0.35 - 0.2 = 0.14999999999999997 made "closer than the margin", so a
 * follow-up right after the person wrote to one of two tasks was asked about.
 */
function tooClose(view: RoutingView, chosen: string): string | undefined {
  const { ambiguityMargin, evidenceFloor } = view.settings;
  const close = (best: number, next: number) => round(next) >= evidenceFloor && round(best - next) < ambiguityMargin;
  const byEvidence = rankedByEvidence(view);
  const [first, second] = byEvidence;
  if (
    first !== undefined &&
    second !== undefined &&
    close(first.evidence, second.evidence) &&
    (first.taskId === chosen || second.taskId === chosen)
  )
    return `evidence ${first.evidence.toFixed(2)} vs ${second.evidence.toFixed(2)}`;
  const answer = view.routingAnswer;
  if (answer?.ok) {
    const scores = [...answer.value.scores].sort((a, b) => b.score - a.score);
    const [a, b] = scores;
    if (a !== undefined && b !== undefined && close(a.score, b.score))
      return `model scores ${a.score.toFixed(2)} vs ${b.score.toFixed(2)}`;
  }
  return undefined;
}

function rankedByEvidence(view: RoutingView): RouteCandidate[] {
  return [...(view.candidates ?? [])].sort((a, b) => b.evidence - a.evidence);
}

function rankedByModel(view: RoutingView): RouteCandidate[] {
  const answer = view.routingAnswer;
  if (!answer?.ok) return rankedByEvidence(view);
  const score = new Map<string, number>();
  for (const s of answer.value.scores) {
    const id = answer.refs.get(s.ref);
    if (id !== undefined) score.set(id, s.score);
  }
  return [...(view.candidates ?? [])].sort((a, b) => (score.get(b.taskId) ?? 0) - (score.get(a.taskId) ?? 0));
}

/** Candidates as recorded: the router's evidence, or the model's score when it gave a higher one. */
function scoredCandidates(view: RoutingView): Candidate[] {
  const answer = view.routingAnswer;
  const model = new Map<string, number>();
  if (answer?.ok)
    for (const s of answer.value.scores) {
      const id = answer.refs.get(s.ref);
      if (id !== undefined) model.set(id, s.score);
    }
  return (view.candidates ?? []).slice(0, 100).map((c) => ({
    taskId: c.taskId,
    score: round(Math.max(c.evidence, model.get(c.taskId) ?? 0)),
    source: c.source,
  }));
}

const round = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 1000) / 1000;

/**
 * Before a new persistent task: the duplicate check (DESIGN.md §4 step 2). Likely duplicates go to
 * the model ("reuse" or "new"); a near-identical goal is asked about even when the model says
 * "new"; with thin evidence or no answer, the person is asked. The check is recorded either way.
 */
function planNewTask(
  view: RoutingView,
  candidates: Candidate[],
  modelStep: ModelStep,
  modelGoal: string | undefined,
): RoutingStep {
  const goal = goalFrom(modelGoal ?? view.message.text);
  if (view.duplicates === undefined) return { kind: 'find-duplicates', goal };
  const { duplicateThreshold, duplicateCertain } = view.settings;
  const likely = view.duplicates.filter((d) => d.score >= duplicateThreshold).slice(0, 3);
  const record = (verdict: 'none' | 'reuse' | 'new' | 'ask') => ({
    candidates: view.duplicates!.slice(0, 50).map((d) => ({ taskId: d.taskId, score: round(d.score) })),
    verdict,
  });
  const withDuplicates = [
    ...candidates,
    ...likely
      .filter((d) => !candidates.some((c) => c.taskId === d.taskId))
      .map((d) => ({ taskId: d.taskId, score: round(d.score), source: 'duplicate' as const })),
  ];
  const createNew = (verdict: 'none' | 'new') =>
    decided({
      decision: {
        outcome: 'new',
        taskId: taskIdFor(view.message.messageId),
        method: 'semantic',
        candidates: withDuplicates,
        modelStep,
        duplicateCheck: record(verdict),
      },
      create: { kind: 'persistent', goal, language: view.message.language },
      deliver: deliveryOf(view.message),
    });
  if (likely.length === 0) return createNew('none');
  if (view.duplicateAnswer === undefined) return { kind: 'ask-duplicate-model' };
  const answer = view.duplicateAnswer;
  const best = likely[0]!;
  const ask = (reason: string) =>
    decided(
      clarifyCard(view, {
        method: 'semantic',
        candidates: withDuplicates,
        modelStep,
        duplicateCheck: record('ask'),
        reason,
        clarifyReason: 'duplicate',
        question: routerPhrase('ambiguous', view.message.language),
        options: optionsFor(
          view,
          likely.map((d) => ({
            taskId: d.taskId,
            goal: d.goal,
            summary: d.summary,
            kind: 'persistent',
            status: 'active',
            lastActiveAt: '',
            source: 'recent',
            evidence: d.score,
          })),
        ),
      }),
    );
  if (!answer.ok) return ask('the duplicate check could not ask the model');
  const verdict = answer.value.verdict;
  if (verdict === 'reuse') {
    const reuse = answer.value.taskRef === null ? undefined : answer.refs.get(answer.value.taskRef);
    if (reuse === undefined || !likely.some((d) => d.taskId === reuse))
      return ask('the duplicate check named no candidate');
    const state = view.taskStates[reuse];
    if (state === undefined) return { kind: 'read-tasks', taskIds: [reuse] };
    const refusal = unavailable(state);
    if (refusal !== undefined) return ask(`the duplicate is ${state.status}`);
    return deliverTo(view, reuse, state, 'semantic', withDuplicates, 'the duplicate check reused an active task', {
      decision: {
        outcome: 'existing',
        taskId: reuse,
        method: 'semantic',
        candidates: withDuplicates,
        modelStep,
        duplicateCheck: record('reuse'),
      },
    });
  }
  if (verdict === 'ask') return ask('the duplicate check asked');
  if (best.score >= duplicateCertain)
    return ask(`a near-identical active task exists (score ${best.score.toFixed(2)})`);
  return createNew('new');
}

function nonBlank(text: string | null): string | undefined {
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed.length === 0 ? undefined : trimmed;
}

export const cardIdFor = (messageId: string) => deterministicUuid('lomo.card', messageId);

/** What goes into the task's inbox: the message's words, and how it came in. */
function deliveryOf(message: RoutingView['message']): NonNullable<PlannedRouting['deliver']> {
  return { messageId: message.messageId, text: message.text, language: message.language, channel: message.channel };
}
