/**
 * The reactive model: a TEST POLICY for the drills (issue 21), NOT A MODEL and not a demo. It
 * decides each step only from the request it is given (the prompt the runtime built, the tools
 * offered, the response format): no memory between calls, no scenario or answer lists, no files,
 * no store. So a context or routing regression changes what it does, and a drill's metrics show
 * it. Structured side calls (routing, the duplicate check, memory extraction) and untooled ones
 * (history summaries) are the offline policy's, unchanged; task steps follow the reactive rules
 * of reactive-policy.ts (README.md beside this file), falling back to the offline policy.
 * Allowed in any NODE_ENV; selected by LOMO_MODEL_PROVIDER=reactive.
 */
import { throwIfAborted } from '../model-errors';
import type { CompletionRequest, CompletionResult, ModelProvider } from '../model-provider.port';
import { OfflineModelProvider } from '../offline/offline-model-provider';
import { estimateUsage } from '../token-estimate';
import { isTaskStep, reactiveStep, withRecalledPreferences } from './reactive-policy';

export const REACTIVE_MODEL_NAME = 'lomo-reactive-test-policy-1';

export class ReactiveModelProvider implements ModelProvider {
  readonly name = 'reactive';
  private readonly offline = new OfflineModelProvider();

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    throwIfAborted(request.signal);
    if (!isTaskStep(request)) return this.offline.complete(request);
    const decision = reactiveStep(request);
    const { text, toolCalls } = decision.kind === 'decided' ? decision : await this.offline.complete(decision.request);
    const calls = withRecalledPreferences(request, toolCalls);
    const output = text + calls.map((c) => c.name + c.arguments).join('');
    return {
      text,
      toolCalls: calls,
      usage: estimateUsage(request, output),
      finishReason: calls.length > 0 ? 'tool_calls' : 'stop',
      model: REACTIVE_MODEL_NAME,
    };
  }
}
