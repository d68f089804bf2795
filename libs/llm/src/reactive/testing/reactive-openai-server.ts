/**
 * Test support: the reactive policy served over the chat-completions wire format (POST
 * /v1/chat/completions on 127.0.0.1, a random port unless one is given), so a drill can run the
 * `openai` adapter path (LOMO_MODEL_PROVIDER=openai, OPENAI_BASE_URL=<baseUrl>) against the same
 * policy it runs in process. Each request is answered from its body alone, like the provider.
 * Anything else than that route is a 404 in OpenAI's error envelope; a body the policy cannot
 * read is a 400.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isModelError } from '../../model-errors';
import type { CompletionRequest } from '../../model-provider.port';
import { estimateUsage } from '../../token-estimate';
import { REACTIVE_MODEL_NAME, ReactiveModelProvider } from '../reactive-model-provider';
import { chatCompletionBody } from '../../testing/fake-openai-server';
import { completionRequestOf, toWireName, WireRequestError } from './wire-request';

export interface ReactiveOpenAIServer {
  /** Pass as OPENAI_BASE_URL (or the adapter's baseUrl). */
  readonly baseUrl: string;
  /** How many chat completions it answered. */
  answered(): number;
  close(): Promise<void>;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_reactive' });
  res.end(JSON.stringify(body));
}

const error = (message: string, type: string, code: string | null = null) => ({
  error: { message, type, param: null, code },
});

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

export interface ReactiveOpenAIServerOptions {
  port?: number;
  /**
   * Answers a structured call the policy does not know (its JSON text), or undefined to leave it
   * to the policy. The wire path turns on the runtime's model-backed side systems (memory
   * extraction with LOMO_MODEL_PROVIDER=openai), whose formats live in other libraries: a drill
   * plugs their offline counterparts in here (e.g. @lomo/memory's offline extractor).
   */
  structured?: (name: string, request: CompletionRequest) => Promise<string | undefined> | string | undefined;
}

export async function startReactiveOpenAIServer(
  options: ReactiveOpenAIServerOptions = {},
): Promise<ReactiveOpenAIServer> {
  const model = new ReactiveModelProvider();
  let answered = 0;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      reply(res, 404, error(`no route ${req.method ?? ''} ${path}`, 'invalid_request_error', 'not_found'));
      return;
    }
    void (async () => {
      try {
        const request = completionRequestOf(await readBody(req));
        const own = request.responseFormat && (await options.structured?.(request.responseFormat.name, request));
        const result =
          typeof own === 'string'
            ? {
                text: own,
                toolCalls: [],
                finishReason: 'stop',
                usage: estimateUsage(request, own),
                model: REACTIVE_MODEL_NAME,
              }
            : await model.complete(request);
        answered += 1;
        reply(
          res,
          200,
          chatCompletionBody({
            content: result.toolCalls.length > 0 && result.text === '' ? null : result.text,
            toolCalls: result.toolCalls.map((c) => ({ ...c, name: toWireName(c.name) })),
            finishReason: result.finishReason,
            usage: { prompt: result.usage.inputTokens, completion: result.usage.outputTokens },
            model: result.model,
          }),
        );
      } catch (caught) {
        // What the policy cannot read is the caller's mistake, as a vendor's 400 would say.
        const message = caught instanceof Error ? caught.message : String(caught);
        const readable = caught instanceof SyntaxError || caught instanceof WireRequestError || isModelError(caught);
        reply(res, readable ? 400 : 500, error(message, readable ? 'invalid_request_error' : 'server_error'));
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    answered: () => answered,
    close: () =>
      (closed ??= new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      })),
  };
}
