import { performance } from 'node:perf_hooks';
import type { WakeReason } from '@lomo/domain';
import type { CompletionResult } from '@lomo/llm';
import type { ContextAssembler } from '../context/context-assembler';
import type { PromptArchive } from '../context/prompt-archive';
import { turnAppend } from '../process/turn-append';
import type { AppendOutcome, TurnSession } from './turn-session';
import type { RuntimeDeps } from './runtime-deps';
import { planViewOf } from './plan-view-of';
import { toIntents } from './tool-call-intents';
import { typedErrorOf } from './typed-error';

export type ModelStepOutcome = AppendOutcome | 'aborted';

const MAX_REPLY = 100_000;
const COMMIT_ATTEMPTS = 3;

/**
 * DESIGN.md §4 step 4b-c: build the context from the claimed items and the state, archive the
 * prompt, call the model with an abort signal, then commit the step to the turn stream at the
 * revision last seen. Items delivered during the call are not in the claim, so this step does
 * not count them as read. A model failure fails the turn (its claims are released by cleanup).
 */
export class ModelStep {
  constructor(
    private readonly deps: RuntimeDeps,
    private readonly context: ContextAssembler,
    private readonly archive: PromptArchive,
  ) {}

  async run(
    session: TurnSession,
    step: number,
    claimedItemIds: readonly string[],
    wake: WakeReason,
  ): Promise<ModelStepOutcome> {
    const { deps } = this;
    await deps.faults.at(this.fault(session, 'before-model-call', step));
    // Layers, history (compressed first when over its budget), visible tools, cost per layer.
    const { prompt, context } = await this.context.assemble(session, step, claimedItemIds);
    // Archived while the model thinks; awaited before the commit that references it.
    const promptRef = this.archive.store(prompt, session.taskId);
    promptRef.catch(() => undefined);

    const controller = new AbortController();
    const onCancel = () => controller.abort(session.cancelled.signal.reason);
    session.cancelled.signal.addEventListener('abort', onCancel, { once: true });
    if (session.cancelled.signal.aborted || session.shuttingDown) controller.abort(new Error('stopping'));
    session.modelCall = controller;
    const started = performance.now();
    let result: CompletionResult;
    try {
      result = await deps.model.complete({
        messages: prompt.messages,
        tools: prompt.tools,
        toolChoice: 'auto',
        ...(prompt.allowedTools !== undefined ? { allowedTools: prompt.allowedTools } : {}),
        // Requests of one task share a cache key: their prefixes are the ones that repeat.
        cacheKey: session.taskId,
        signal: controller.signal,
        trace: { taskId: session.taskId, turnId: session.turnId, step },
      });
      deps.metrics.modelLatency.observe({ outcome: 'ok' }, (performance.now() - started) / 1000);
    } catch (error) {
      const aborted = controller.signal.aborted;
      deps.metrics.modelLatency.observe(
        { outcome: aborted ? 'aborted' : 'error' },
        (performance.now() - started) / 1000,
      );
      if (aborted) return 'aborted';
      return this.fail(session, step, error, wake);
    } finally {
      session.cancelled.signal.removeEventListener('abort', onCancel);
      session.modelCall = undefined;
    }
    await deps.faults.at(this.fault(session, 'after-model-reply', step));
    const ref = await promptRef;
    const intents = toIntents(result.toolCalls, session.turnId, step);
    const reply = result.text.length > MAX_REPLY ? `${result.text.slice(0, MAX_REPLY - 1)}…` : result.text;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await session.exclusive(() =>
        session.appendTurn(
          turnAppend(planViewOf(deps, session, wake), 'commit', [
            {
              type: 'CommitStep',
              generation: session.generation,
              step,
              reply,
              toolCallIntents: intents,
              consumedItemIds: [...claimedItemIds],
              usage: result.usage,
              promptRef: ref,
              finishReason: result.finishReason,
              context,
            },
          ]),
        ),
      );
      // A conflict we survive (a late async completion, a renewal race) only moved the revision.
      if (outcome !== 'conflict' || attempt >= COMMIT_ATTEMPTS) {
        if (outcome === 'ok') {
          deps.metrics.steps.inc();
          await deps.faults.at(this.fault(session, 'after-step-committed', step));
        }
        return outcome;
      }
    }
  }

  private async fail(session: TurnSession, step: number, error: unknown, wake: WakeReason): Promise<ModelStepOutcome> {
    const failure = typedErrorOf(error, 'MODEL_FAILED');
    this.deps.logger.error(
      { taskId: session.taskId, turnId: session.turnId, generation: session.generation, step, error: failure },
      'model call failed; failing the turn',
    );
    return session.exclusive(() =>
      session.appendTurn(
        turnAppend(planViewOf(this.deps, session, wake), 'fail', [
          { type: 'FailTurn', generation: session.generation, error: failure },
        ]),
      ),
    );
  }

  private fault(
    session: TurnSession,
    point: 'before-model-call' | 'after-model-reply' | 'after-step-committed',
    step: number,
  ) {
    return {
      point,
      workerId: this.deps.options.workerId,
      taskId: session.taskId,
      turnId: session.turnId,
      generation: session.generation,
      step,
    };
  }
}
