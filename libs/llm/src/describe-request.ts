import type { ChatMessage, CompletionRequest } from './model-provider.port';

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function describeMessage(message: ChatMessage): string {
  switch (message.role) {
    case 'tool':
      return `tool(${message.toolCallId}): "${clip(message.content, 120)}"`;
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map((c) => `${c.name}#${c.id}`);
      return `assistant: "${clip(message.content, 120)}"${calls.length ? ` calls [${calls.join(', ')}]` : ''}`;
    }
    default:
      return `${message.role}: "${clip(message.content, 200)}"`;
  }
}

/**
 * A one-paragraph summary of a request for error messages: enough to see which step of a
 * fixture it was meant for without dumping the whole prompt.
 */
export function describeRequest(request: CompletionRequest): string {
  const parts: string[] = [];
  if (request.trace) parts.push(`trace ${JSON.stringify(request.trace)}`);
  parts.push(`${request.messages.length} message(s)`);
  const tail = request.messages.slice(-3).map(describeMessage);
  if (tail.length > 0) parts.push(`last: ${tail.join(' | ')}`);
  parts.push(`tools [${request.tools.map((t) => t.name).join(', ')}]`);
  // With the masked strategy every tool is offered; which were callable tells the steps apart.
  if (request.allowedTools !== undefined) parts.push(`allowed [${request.allowedTools.join(', ')}]`);
  if (request.toolChoice !== undefined) parts.push(`toolChoice ${JSON.stringify(request.toolChoice)}`);
  return parts.join('; ');
}
