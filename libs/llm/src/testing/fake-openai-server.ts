import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test support: a local HTTP server speaking the chat-completions wire format, on 127.0.0.1 and
 * a random port, so the openai adapter is exercised through the real SDK and real sockets.
 */
export interface FakeOpenAIRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON (or its text when it is not JSON). */
  body: unknown;
  /**
   * The body's bytes exactly as they arrived, for assertions on what the adapter actually sent
   * (prefixBytesOf in request-prefix.ts hashes the cache-eligible part).
   */
  raw: Buffer;
  receivedAt: number;
}

export type FakeOpenAIReply =
  | { status?: number; headers?: Record<string, string>; body: unknown }
  /** Never answers (until the client gives up). */
  | { hang: 'before-headers' }
  /** Sends the status line and headers, then stalls mid-body. */
  | { hang: 'mid-body' };

export type FakeOpenAIResponder = (request: FakeOpenAIRequest, index: number) => FakeOpenAIReply;

export interface FakeOpenAIServer {
  /** Pass as the adapter's baseUrl. */
  readonly baseUrl: string;
  readonly requests: readonly FakeOpenAIRequest[];
  close(): Promise<void>;
}

export interface ChatCompletionBodyInput {
  content?: string | null;
  toolCalls?: ReadonlyArray<{ id: string; name: string; arguments: string }>;
  finishReason?: string;
  usage?: { prompt: number; completion: number; cached?: number };
  model?: string;
}

/** A response body shaped exactly as api.openai.com sends it. */
export function chatCompletionBody(input: ChatCompletionBodyInput = {}): Record<string, unknown> {
  const toolCalls = input.toolCalls ?? [];
  const usage = input.usage ?? { prompt: 12, completion: 5 };
  return {
    id: 'chatcmpl-fake0001',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: input.model ?? 'gpt-fake-2024-01-01',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: input.content === undefined ? (toolCalls.length ? null : 'ok') : input.content,
          refusal: null,
          annotations: [],
          ...(toolCalls.length
            ? {
                tool_calls: toolCalls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: input.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
      },
    ],
    usage: {
      prompt_tokens: usage.prompt,
      completion_tokens: usage.completion,
      total_tokens: usage.prompt + usage.completion,
      prompt_tokens_details: { cached_tokens: usage.cached ?? 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_fake',
  };
}

/** An error reply in OpenAI's envelope: `{ error: { message, type, param, code } }`. */
export function errorReply(
  status: number,
  message: string,
  options: { type?: string; code?: string | null; headers?: Record<string, string> } = {},
): FakeOpenAIReply {
  return {
    status,
    headers: options.headers,
    body: {
      error: { message, type: options.type ?? 'invalid_request_error', param: null, code: options.code ?? null },
    },
  };
}

function send(res: ServerResponse, reply: FakeOpenAIReply): void {
  if ('hang' in reply) {
    if (reply.hang === 'mid-body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"chatcmpl-stalled","choices":[');
    }
    return;
  }
  const payload = JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, {
    'content-type': 'application/json',
    'x-request-id': 'req_fake',
    ...reply.headers,
  });
  res.end(payload);
}

export async function startFakeOpenAIServer(
  replies: FakeOpenAIResponder | readonly FakeOpenAIReply[],
): Promise<FakeOpenAIServer> {
  const requests: FakeOpenAIRequest[] = [];
  const respond: FakeOpenAIResponder =
    typeof replies === 'function'
      ? replies
      : (_request, index) =>
          replies[index] ??
          errorReply(500, `fake server: no reply scripted for request #${index + 1}`, { type: 'fake' });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text: the test then sees exactly what was sent
      }
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        raw,
        receivedAt: Date.now(),
      };
      requests.push(request);
      send(res, respond(request, requests.length - 1));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      (closed ??= new Promise<void>((resolve, reject) => {
        // Hanging replies keep sockets open; close() alone would wait for them forever.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      })),
  };
}

/** An embeddings response body as api.openai.com sends it (`reversed` lists the items backwards). */
export function embeddingsBody(
  vectors: ReadonlyArray<readonly number[]>,
  options: { model?: string; reversed?: boolean } = {},
): Record<string, unknown> {
  const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding: [...embedding] }));
  return {
    object: 'list',
    data: options.reversed ? data.reverse() : data,
    model: options.model ?? 'embed-fake',
    usage: { prompt_tokens: 4, total_tokens: 4 },
  };
}
