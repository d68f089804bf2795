import { sleep as realSleep } from '@lomo/resilience';
import { describeRequest } from '../describe-request';
import {
  ModelAbortedError,
  ModelError,
  ModelTimeoutError,
  ModelUnscriptedError,
  throwIfAborted,
} from '../model-errors';
import type {
  CompletionRequest,
  CompletionResult,
  FinishReason,
  ModelProvider,
  TokenUsage,
} from '../model-provider.port';
import { estimateUsage } from '../token-estimate';
import type { RequestMatcher } from './request-matchers';

export interface ScriptedReply {
  text?: string;
  /**
   * A structured answer: serialised with JSON.stringify as the reply text (wins over `text`).
   * For an invalid answer (to exercise the structured-output retry) script raw `text` instead.
   */
  json?: unknown;
  /** `id` defaults to a stable `scripted_{step}_{index}`; object arguments are JSON-encoded. */
  toolCalls?: ReadonlyArray<{ id?: string; name: string; arguments?: string | Record<string, unknown> }>;
  /** Defaults to an estimate from character counts. */
  usage?: TokenUsage;
  /** Defaults to 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: FinishReason;
  model?: string;
}

export interface ScriptedStep {
  /** Names the step in errors and in `callsFor(label)`. */
  label?: string;
  /** All must hold for the next request; none means any request. */
  expect?: RequestMatcher | readonly RequestMatcher[];
  reply?: ScriptedReply | ((request: CompletionRequest) => ScriptedReply);
  /** Reject with this instead of replying (e.g. a MODEL_UNAVAILABLE to exercise retries). */
  fail?: ModelError;
  delayMs?: number;
  /**
   * Reject with MODEL_TIMEOUT (after `delayMs`, if set) as an adapter does when its deadline
   * fires and its retries are spent; the number is the timeout the error reports.
   */
  timeout?: true | number;
  /** Never answer; reject with MODEL_ABORTED once the request's signal fires. */
  hangUntilAborted?: boolean;
}

export type RecordedRequest = Omit<CompletionRequest, 'signal'>;

export interface ScriptedCall {
  /** Arrival order, from 0. */
  index: number;
  /** The step this request consumed; undefined when it matched none. */
  stepIndex?: number;
  label?: string;
  request: RecordedRequest;
  outcome: 'pending' | 'replied' | 'failed' | 'aborted' | 'unscripted';
}

export interface ScriptedModelProviderOptions {
  /** Inject a fake clock's sleep so `delayMs` follows test time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const asList = (e: ScriptedStep['expect']): readonly RequestMatcher[] => (e === undefined ? [] : 'test' in e ? [e] : e);

/**
 * A model for tests: it answers a fixed sequence of steps, in order, and fails loudly
 * (MODEL_UNSCRIPTED, describing the request) on anything else. Every request is recorded, so a
 * test can assert how often the model was asked for a step.
 */
export class ScriptedModelProvider implements ModelProvider {
  readonly name = 'scripted';
  private readonly steps: ScriptedStep[];
  private nextStep = 0;
  private readonly recorded: ScriptedCall[] = [];
  private readonly unscripted: ModelUnscriptedError[] = [];
  private readonly wait: NonNullable<ScriptedModelProviderOptions['sleep']>;

  constructor(steps: readonly ScriptedStep[] = [], options: ScriptedModelProviderOptions = {}) {
    this.steps = [...steps];
    this.wait = options.sleep ?? realSleep;
  }

  get calls(): readonly ScriptedCall[] {
    return this.recorded;
  }

  /** True when no request reached this model at all (the deterministic paths assert it). */
  get neverCalled(): boolean {
    return this.recorded.length === 0;
  }

  get remainingSteps(): number {
    return this.steps.length - this.nextStep;
  }

  callsFor(label: string): ScriptedCall[] {
    return this.recorded.filter((c) => c.label === label);
  }

  /** Appends steps, for tests that script as they go. */
  push(...steps: ScriptedStep[]): void {
    this.steps.push(...steps);
  }

  /** Throws when a step was never requested or any request went unscripted (even if the caller swallowed that). */
  assertAllConsumed(): void {
    const problems = this.unscripted.map((e) => e.message);
    const left = this.steps.slice(this.nextStep).map((s, i) => this.stepName(s, this.nextStep + i));
    if (left.length > 0) problems.push(`${left.length} scripted step(s) never requested: ${left.join(', ')}`);
    if (problems.length > 0) throw new ModelUnscriptedError(problems.join('\n'), { remaining: left.length });
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const { signal, ...rest } = request;
    const call: ScriptedCall = { index: this.recorded.length, request: structuredClone(rest), outcome: 'pending' };
    this.recorded.push(call);
    try {
      throwIfAborted(signal);
      // Consumed synchronously on arrival, so concurrent requests take steps in arrival order.
      const stepIndex = this.take(request, call.index);
      const step = this.steps[stepIndex];
      call.stepIndex = stepIndex;
      call.label = step.label;
      const result = await this.run(step, stepIndex, request);
      call.outcome = 'replied';
      return result;
    } catch (error) {
      call.outcome =
        error instanceof ModelUnscriptedError
          ? 'unscripted'
          : error instanceof ModelAbortedError
            ? 'aborted'
            : 'failed';
      throw error;
    }
  }

  private take(request: CompletionRequest, callIndex: number): number {
    const step = this.steps[this.nextStep];
    const prefix = `unscripted model request #${callIndex + 1} (${describeRequest(request)})`;
    if (step === undefined) {
      throw this.remember(new ModelUnscriptedError(`${prefix}: all ${this.steps.length} scripted step(s) are used up`));
    }
    const unmet = asList(step.expect).filter((m) => !m.test(request));
    if (unmet.length > 0) {
      const expected = `${this.stepName(step, this.nextStep)} expects ${unmet.map((m) => m.description).join(' and ')}`;
      throw this.remember(new ModelUnscriptedError(`${prefix}: ${expected}`, { stepIndex: this.nextStep }));
    }
    return this.nextStep++;
  }

  private async run(step: ScriptedStep, stepIndex: number, request: CompletionRequest): Promise<CompletionResult> {
    try {
      if (step.delayMs) await this.wait(step.delayMs, request.signal);
      if (step.hangUntilAborted) await this.hang(step, stepIndex, request.signal);
    } catch (error) {
      if (request.signal?.aborted) throw new ModelAbortedError(undefined, error);
      throw error;
    }
    if (step.timeout !== undefined) {
      const timeoutMs = step.timeout === true ? step.delayMs : step.timeout;
      throw new ModelTimeoutError(`scripted timeout${timeoutMs ? ` after ${timeoutMs} ms` : ''}`, timeoutMs);
    }
    if (step.fail) throw step.fail;
    const reply = typeof step.reply === 'function' ? step.reply(request) : (step.reply ?? {});
    return this.toResult(reply, stepIndex, request);
  }

  private hang(step: ScriptedStep, stepIndex: number, signal: AbortSignal | undefined): Promise<never> {
    if (!signal) {
      throw this.remember(
        new ModelUnscriptedError(
          `${this.stepName(step, stepIndex)} hangs until aborted, but the request has no signal`,
        ),
      );
    }
    return new Promise<never>((_resolve, reject) => {
      const onAbort = () => reject(new ModelAbortedError(undefined, signal.reason));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private toResult(reply: ScriptedReply, stepIndex: number, request: CompletionRequest): CompletionResult {
    const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `scripted_${stepIndex}_${i}`,
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
    }));
    const text = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? '');
    return {
      text,
      toolCalls,
      usage: reply.usage ?? estimateUsage(request, text + toolCalls.map((c) => c.name + c.arguments).join('')),
      finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      model: reply.model ?? 'scripted',
    };
  }

  private stepName(step: ScriptedStep, index: number): string {
    return `step ${index + 1}${step.label ? ` "${step.label}"` : ''}`;
  }

  private remember(error: ModelUnscriptedError): ModelUnscriptedError {
    this.unscripted.push(error);
    return error;
  }
}
