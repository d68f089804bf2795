import { ModelBadRequestError } from '../model-errors';
import type { CompletionRequest, CompletionResult } from '../model-provider.port';

/**
 * OpenAI function names must match ^[a-zA-Z0-9_-]{1,64}$, while our tool names are dotted
 * ("notes.create"). Dots travel as "__" and are mapped back on the way in; the map is built from
 * the offered tools, so two names that would collide are refused before anything is sent.
 */
export interface ToolNameCodec {
  encodeRequest(request: CompletionRequest): CompletionRequest;
  decodeResult(result: CompletionResult): CompletionResult;
}

const toWire = (name: string) => name.replace(/\./g, '__');

export function toolNameCodec(request: CompletionRequest): ToolNameCodec {
  const fromWire = new Map<string, string>();
  for (const tool of request.tools) {
    const wire = toWire(tool.name);
    const previous = fromWire.get(wire);
    if (previous !== undefined && previous !== tool.name) {
      throw new ModelBadRequestError(`tools "${previous}" and "${tool.name}" have the same wire name "${wire}"`);
    }
    fromWire.set(wire, tool.name);
  }
  return {
    encodeRequest: (r) => ({
      ...r,
      tools: r.tools.map((t) => ({ ...t, name: toWire(t.name) })),
      toolChoice: typeof r.toolChoice === 'object' ? { name: toWire(r.toolChoice.name) } : r.toolChoice,
      ...(r.allowedTools !== undefined ? { allowedTools: r.allowedTools.map(toWire) } : {}),
      messages: r.messages.map((m) =>
        m.role === 'assistant' && m.toolCalls
          ? { ...m, toolCalls: m.toolCalls.map((c) => ({ ...c, name: toWire(c.name) })) }
          : m,
      ),
    }),
    decodeResult: (result) => ({
      ...result,
      toolCalls: result.toolCalls.map((c) => ({ ...c, name: fromWire.get(c.name) ?? c.name })),
    }),
  };
}
