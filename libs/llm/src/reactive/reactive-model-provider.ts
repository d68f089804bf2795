/**
 * The reactive model: a TEST POLICY for the drills (issue 21), NOT A MODEL and not a demo. It
 * decides each step only from the request it is given (the prompt the runtime built, the tools
 * offered, the response format): no memory between calls, no scenario or answer lists, no files,
 * no store. So a context or routing regression changes what it does, and a drill's metrics show
 * it. Structured side calls (routing, the duplicate check, memory extraction) are the offline
 * policy's, unchanged; a history summary (no tools, no format) gets an empty answer, so the
 * runtime keeps its own extractive summary (a keyword policy cannot summarize, and the offline
 * policy's greeting would stand in for the history); task steps follow the reactive rules
 * of reactive-policy.ts (README.md beside this file), falling back to the offline policy.
 * Allowed in any NODE_ENV; selected by LOMO_MODEL_PROVIDER=reactive.
 */
import { throwIfAborted } from '../model-errors';
import type { CompletionRequest, CompletionResult, ModelProvider, ModelToolCall } from '../model-provider.port';
import { OfflineModelProvider } from '../offline/offline-model-provider';
import { estimateUsage } from '../token-estimate';
import { isSummaryRequest, isTaskStep, reactiveStep, withRecalledPreferences } from './reactive-policy';

export const REACTIVE_MODEL_NAME = 'lomo-reactive-test-policy-1';

export class ReactiveModelProvider implements ModelProvider {
  readonly name = 'reactive';
  private readonly offline = new OfflineModelProvider();

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    throwIfAborted(request.signal);
    if (isSummaryRequest(request)) return answer(request, '', []);
    if (!isTaskStep(request)) return this.offline.complete(request);
    const decision = reactiveStep(request);
    const { text, toolCalls } = decision.kind === 'decided' ? decision : await this.offline.complete(decision.request);
    return answer(request, text, withRecalledPreferences(request, toolCalls));
  }
}

function answer(request: CompletionRequest, text: string, toolCalls: ModelToolCall[]): CompletionResult {
  const output = text + toolCalls.map((c) => c.name + c.arguments).join('');
  return {
    text,
    toolCalls,
    usage: estimateUsage(request, output),
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    model: REACTIVE_MODEL_NAME,
  };
}
