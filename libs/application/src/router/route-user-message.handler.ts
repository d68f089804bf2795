import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BLOB_STORE, type BlobStore } from '@lomo/blobs';
import {
  CLOCK,
  DuplicateAnswer,
  DUPLICATE_ANSWER_SCHEMA_NAME,
  ID_GENERATOR,
  mainEvents,
  ROUTING_ANSWER_SCHEMA_NAME,
  RoutingAnswer,
  TEST_CONTROL,
  testControlOff,
  ValidationError,
  zodIssues,
  type Clock,
  type EventEnvelope,
  type IdGenerator,
  type TestControl,
} from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { completeStructured, isModelError, type ChatMessage, type ModelProvider } from '@lomo/llm';
import { LOGGER, type Logger } from '@lomo/observability';
import {
  ARTIFACT_BINDINGS,
  buildDuplicatePrompt,
  goalFrom,
  buildRoutingPrompt,
  planRouting,
  ROUTING_CANDIDATES,
  type ArtifactBindings,
  type ModelOutcome,
  type PlannedRouting,
  type RouteCandidate,
  type RoutingCandidates,
  type RoutingDecision,
  type RoutingSettings,
  type RoutingView,
  type UserMessage,
} from '@lomo/routing';
import type { z } from 'zod';
import { applyTaskEffects, recordRouting } from './apply-routing';
import { readRoutingView } from './read-routing-view';
import { RouteUserMessage, type RouteUserMessageResult } from './route-user-message.command';
import { findRecordedDecision } from './routing-log';
import { routerMetadata } from './router-metadata';
import { ROUTING_MODEL, ROUTING_SETTINGS, ROUTING_TIMEOUT_MS } from './routing-tokens';
import { readTask } from './task-writes';
import { WakeUpPublisher } from './wake-up-publisher';

const PROMPT_TYPE = 'application/vnd.lomo.routing-prompt+json';

/** A planner that keeps asking for more is a bug, not a reason to loop forever. */
const MAX_PLAN_STEPS = 12;

/**
 * Routes a message (DESIGN.md §4 step 2) by driving the pure planner (`planRouting` in
 * @lomo/routing): read what it asks for, call the model when it asks, then record the decision
 * with what it says in Main in one append, and only then create/deliver/wake, each write
 * idempotent. A redelivered message finds its decision and re-runs only the task writes, which
 * it re-derives from the main line, so a crash anywhere leaves exactly one inbox item.
 */
@CommandHandler(RouteUserMessage)
export class RouteUserMessageHandler implements ICommandHandler<RouteUserMessage, RouteUserMessageResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WakeUpPublisher) private readonly wakeUps: WakeUpPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(ROUTING_MODEL) private readonly model: ModelProvider,
    @Inject(ROUTING_CANDIDATES) private readonly candidates: RoutingCandidates,
    @Inject(ARTIFACT_BINDINGS) private readonly bindings: ArtifactBindings,
    @Inject(ROUTING_SETTINGS) private readonly settings: RoutingSettings,
    @Inject(ROUTING_TIMEOUT_MS) private readonly timeoutMs: number,
    @Optional() @Inject(BLOB_STORE) private readonly blobs?: BlobStore,
    @Optional() @Inject(TEST_CONTROL) private readonly testControl: TestControl = testControlOff,
  ) {}

  async execute({ message }: RouteUserMessage): Promise<RouteUserMessageResult> {
    const { decision: final, written, routing } = await this.recordRouting(message);
    const data = userMessageOf(message);
    const { workspaceId } = message.metadata;
    const metadata = routerMetadata(message);
    const deliveredTo = await applyTaskEffects(
      { store: this.store, ids: this.ids },
      final,
      // The sender travels with the delivery: a step recalls that person's memory only.
      routing.deliver === undefined ? routing : { ...routing, deliver: { ...routing.deliver, from: data.userId } },
      metadata,
      (error, taskId) =>
        this.logger.warn(
          { messageId: data.messageId, taskId, code: error.code, workspaceId },
          'delivery refused by the target task',
        ),
    );
    if (deliveredTo !== null) await this.wakeUps.wake(workspaceId, deliveredTo);
    this.logger.info(
      {
        messageId: data.messageId,
        outcome: final.outcome,
        method: final.method,
        taskId: final.taskId,
        decisionWritten: written,
        deliveredTo,
        latencyMs: final.latencyMs,
        workspaceId,
      },
      'message routed',
    );
    return { decision: final, decisionWritten: written, deliveredTo, woke: deliveredTo !== null };
  }

  /**
   * Step one on its own: decide (or find the decision on record) and record it with what it says
   * in Main. Returns the task writes that follow from the recorded decision.
   */
  async recordRouting(message: EventEnvelope): Promise<{
    decision: RoutingDecision;
    written: boolean;
    routing: Pick<PlannedRouting, 'create' | 'deliver' | 'upgrade'>;
  }> {
    const data = userMessageOf(message);
    const { streamId, revision, workspaceId } = message.metadata;
    const recorded = await findRecordedDecision(this.store, streamId, revision, data.messageId);
    if (recorded !== undefined)
      return { decision: recorded, written: false, routing: await this.replan(message, data, recorded) };
    const started = performance.now();
    const view = await readRoutingView(
      { store: this.store, bindings: this.bindings, settings: this.settings },
      message,
      data,
    );
    const planned = await this.plan(view, workspaceId);
    if (view.promptRef !== undefined && planned.routing.decision.method === 'semantic')
      planned.routing.decision = { ...planned.routing.decision, promptRef: view.promptRef };
    const result = await recordRouting(
      { store: this.store, ids: this.ids },
      streamId,
      revision,
      data.messageId,
      planned.routing,
      performance.now() - started,
      data.userId,
      routerMetadata(message),
    );
    // Another router recorded a different decision first: act on the log, not on this plan.
    const routing = result.written ? planned.routing : await this.replan(message, data, result.decision);
    return { decision: result.decision, written: result.written, routing };
  }

  /** Drives the planner to a decision. */
  private async plan(view: RoutingView, workspaceId: string): Promise<{ routing: PlannedRouting }> {
    for (let i = 0; i < MAX_PLAN_STEPS; i += 1) {
      const step = planRouting(view);
      switch (step.kind) {
        case 'decided':
          return { routing: step.routing };
        case 'retrieve-candidates':
          view.candidates = await this.candidates.retrieve({
            workspaceId,
            text: step.text,
            alsoInclude: await this.recentDecisionCandidates(view, workspaceId),
          });
          break;
        case 'ask-model':
          view.routingAnswer = await this.askRouting(view);
          break;
        case 'read-tasks':
          for (const taskId of step.taskIds)
            view.taskStates = { ...view.taskStates, [taskId]: await readTask(this.store, taskId, workspaceId) };
          break;
        case 'find-duplicates':
          view.duplicates = await this.candidates.duplicates({ workspaceId, goal: step.goal });
          break;
        case 'ask-duplicate-model':
          view.duplicateAnswer = await this.askDuplicate(view);
          break;
        default: {
          const never: never = step;
          throw new Error(`unknown routing step ${JSON.stringify(never)}`);
        }
      }
    }
    throw new Error(`routing message ${view.message.messageId} did not settle in ${MAX_PLAN_STEPS} steps`);
  }

  /**
   * Read-your-writes: the tasks this person's latest messages were routed to, read from their
   * streams (the routing index may not have them yet), boosted as the likeliest follow-up targets.
   */
  private async recentDecisionCandidates(view: RoutingView, workspaceId: string): Promise<RouteCandidate[]> {
    // Drills' no_routing_context mutation (test-control README): the index's candidates alone.
    if (this.testControl.mutation('no_routing_context')) return [];
    const out: RouteCandidate[] = [];
    for (const [index, taskId] of view.recentDecisions.entries()) {
      const state = await readTask(this.store, taskId, workspaceId);
      if (state.status === 'none' || state.status === 'archived') continue;
      out.push({
        taskId,
        goal: state.goal,
        summary: state.summary ?? null,
        kind: state.kind,
        status: state.status,
        lastActiveAt: this.clock.now().toISOString(),
        source: 'recent_decision',
        // The newest decision counts most; older ones fade (routing-candidates merges this with lexical evidence).
        evidence: index === 0 ? 0.35 : 0.2,
      });
    }
    return out;
  }

  private async askRouting(view: RoutingView): Promise<ModelOutcome<RoutingAnswer>> {
    const built = buildRoutingPrompt({
      message: view.message,
      candidates: view.candidates ?? [],
      ...((view.answering ?? view.openCard) === undefined ? {} : { pending: (view.answering ?? view.openCard)! }),
    });
    return this.ask(built.messages, built.refs, ROUTING_ANSWER_SCHEMA_NAME, RoutingAnswer, view);
  }

  private async askDuplicate(view: RoutingView): Promise<ModelOutcome<DuplicateAnswer>> {
    const built = buildDuplicatePrompt({
      goal: view.message.text,
      language: view.message.language,
      candidates: (view.duplicates ?? []).slice(0, 3),
    });
    return this.ask(built.messages, built.refs, DUPLICATE_ANSWER_SCHEMA_NAME, DuplicateAnswer, view);
  }

  /** One structured call, bounded in time; any model failure is an outcome the planner turns into a question. */
  private async ask<T>(
    messages: ChatMessage[],
    refs: Map<string, string>,
    name: string,
    schema: z.ZodType<T>,
    view: RoutingView,
  ): Promise<ModelOutcome<T>> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    // What the model saw is kept, so an operator can read the routing prompt back exactly.
    if (this.blobs !== undefined && name === ROUTING_ANSWER_SCHEMA_NAME)
      view.promptRef = await this.blobs.put(JSON.stringify({ format: 'lomo.routing-prompt/1', messages }), PROMPT_TYPE);
    try {
      const result = await completeStructured(
        this.model,
        { messages, tools: [], signal, temperature: 0, trace: { purpose: name } },
        { name, schema },
      );
      return {
        ok: true,
        value: result.value,
        model: result.model,
        attempts: result.attempts,
        usage: result.usage,
        refs,
      };
    } catch (error) {
      if (!isModelError(error)) throw error;
      const invalid = error.code === 'MODEL_INVALID_OUTPUT';
      const details = invalid
        ? (error as unknown as { attempts: number; usage: { inputTokens: number; outputTokens: number } })
        : undefined;
      this.logger.warn(
        { messageId: view.message.messageId, code: error.code, schema: name },
        'routing model call failed; the person is asked instead',
      );
      return {
        ok: false,
        failure: invalid ? 'invalid' : 'unavailable',
        code: error.code,
        model: this.model.name,
        attempts: details?.attempts ?? 1,
        usage: details?.usage ?? { inputTokens: 0, outputTokens: 0 },
      };
    }
  }

  /**
   * The task writes of a decision already on record, re-derived from the log: the message (or,
   * for a card answer, the message the card asked about) and, for a new task, its kind and goal.
   */
  private async replan(
    message: EventEnvelope,
    data: UserMessage,
    decision: NonNullable<Awaited<ReturnType<typeof findRecordedDecision>>>,
  ): Promise<Pick<PlannedRouting, 'create' | 'deliver' | 'upgrade'>> {
    if (decision.taskId === null) return {};
    let deliver = { messageId: data.messageId, text: data.text, language: data.language };
    if (decision.answersCardId !== undefined) {
      const view = await readRoutingView({ store: this.store, bindings: this.bindings }, message, {
        ...data,
        answersCardId: decision.answersCardId,
      });
      const asked = view.answering?.asked;
      if (asked !== undefined) deliver = asked;
    }
    if (decision.outcome === 'existing') return { deliver };
    return {
      deliver,
      create: {
        kind: decision.outcome === 'lightweight' ? 'lightweight' : 'persistent',
        goal: goalFrom(deliver.text),
        language: deliver.language,
      },
    };
  }
}

function userMessageOf(message: EventEnvelope): UserMessage {
  if (message.type !== 'UserMessageReceived')
    throw new ValidationError(`Expected UserMessageReceived, got ${message.type}`, []);
  const parsed = mainEvents.UserMessageReceived.safeParse(message.data);
  if (!parsed.success)
    throw new ValidationError('UserMessageReceived does not match its contract', zodIssues(parsed.error));
  return parsed.data;
}
