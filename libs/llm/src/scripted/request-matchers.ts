import type { ChatMessage, CompletionRequest, ToolChoice } from '../model-provider.port';

/** One expectation about a request; `description` is what an unscripted-request error prints. */
export interface RequestMatcher {
  readonly description: string;
  test(request: CompletionRequest): boolean;
}

const last = <T>(items: readonly T[]): T | undefined => items[items.length - 1];
const lastOfRole = (request: CompletionRequest, role: ChatMessage['role']) =>
  last(request.messages.filter((m) => m.role === role));

/** Matchers for scripted steps; combine several on a step and all must hold. */
export const match = {
  any: (): RequestMatcher => ({ description: 'any request', test: () => true }),

  lastMessageContains: (text: string): RequestMatcher => ({
    description: `last message contains ${JSON.stringify(text)}`,
    test: (r) => last(r.messages)?.content.includes(text) ?? false,
  }),

  lastUserMessageContains: (text: string): RequestMatcher => ({
    description: `last user message contains ${JSON.stringify(text)}`,
    test: (r) => lastOfRole(r, 'user')?.content.includes(text) ?? false,
  }),

  /** The conversation carries the result of tool call `callId` (optionally containing `text`). */
  toolResultFor: (callId: string, text?: string): RequestMatcher => ({
    description: `includes a tool result for ${callId}${text === undefined ? '' : ` containing ${JSON.stringify(text)}`}`,
    test: (r) =>
      r.messages.some(
        (m) => m.role === 'tool' && m.toolCallId === callId && (text === undefined || m.content.includes(text)),
      ),
  }),

  /** Every named tool is offered (others may be too). */
  offersTools: (...names: string[]): RequestMatcher => ({
    description: `offers tools [${names.join(', ')}]`,
    test: (r) => names.every((n) => r.tools.some((t) => t.name === n)),
  }),

  offersExactlyTools: (...names: string[]): RequestMatcher => ({
    description: `offers exactly tools [${[...names].sort().join(', ')}]`,
    test: (r) =>
      r.tools
        .map((t) => t.name)
        .sort()
        .join('\n') === [...names].sort().join('\n'),
  }),

  toolChoice: (choice: ToolChoice): RequestMatcher => ({
    description: `toolChoice ${JSON.stringify(choice)}`,
    test: (r) => JSON.stringify(r.toolChoice ?? 'auto') === JSON.stringify(choice),
  }),

  trace: (expected: NonNullable<CompletionRequest['trace']>): RequestMatcher => ({
    description: `trace includes ${JSON.stringify(expected)}`,
    test: (r) => Object.entries(expected).every(([k, v]) => r.trace?.[k as keyof typeof expected] === v),
  }),

  /** The request asks for a structured answer named `name` (e.g. `route_message`). */
  responseFormat: (name: string): RequestMatcher => ({
    description: `asks for structured output ${JSON.stringify(name)}`,
    test: (r) => r.responseFormat?.name === name,
  }),

  where: (description: string, predicate: (request: CompletionRequest) => boolean): RequestMatcher => ({
    description,
    test: predicate,
  }),
};
