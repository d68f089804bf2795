import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test support: a local HTTP server speaking OpenAI's images and videos wire format on 127.0.0.1
 * and a random port, so the adapters in ../openai run through the real SDK and real sockets (the
 * same approach as libs/llm/src/testing/fake-openai-server.ts, plus multipart bodies and binary
 * answers). Replies are scripted in order or computed by a function; every request is recorded.
 */
export interface FakeMediaFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export interface FakeMediaRequest {
  method: string;
  /** Path and query, e.g. `/v1/videos/video_1/content?variant=video`. */
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** Parsed JSON bodies. */
  json?: unknown;
  /** Parsed multipart/form-data bodies. */
  form?: { fields: Record<string, string>; files: FakeMediaFile[] };
  receivedAt: number;
}

export type FakeMediaReply =
  | { status?: number; headers?: Record<string, string>; body: unknown }
  | { status?: number; headers?: Record<string, string>; bytes: Buffer; contentType?: string }
  /** Never answers (until the client gives up). */
  | { hang: 'before-headers' }
  /** Sends the status line and headers, then stalls mid-body. */
  | { hang: 'mid-body' }
  /** Reads the whole request, then closes the connection without a word. */
  | { drop: true };

export type FakeMediaResponder = (request: FakeMediaRequest, index: number) => FakeMediaReply;

export interface FakeMediaServer {
  /** Pass as the adapter's baseUrl (ends in /v1). */
  readonly baseUrl: string;
  /** http://127.0.0.1:port, for URLs the server hands out (image `url` results). */
  readonly origin: string;
  readonly requests: readonly FakeMediaRequest[];
  /** Requests whose method and path (without query) match, e.g. count('POST', '/v1/videos'). */
  count(method: string, path: string): number;
  close(): Promise<void>;
}

/** An error reply in OpenAI's envelope: `{ error: { message, type, param, code } }`. */
export function mediaErrorReply(
  status: number,
  message: string,
  options: { type?: string; code?: string | null; headers?: Record<string, string> } = {},
): FakeMediaReply {
  return {
    status,
    headers: options.headers,
    body: {
      error: { message, type: options.type ?? 'invalid_request_error', param: null, code: options.code ?? null },
    },
  };
}

/** An images.generate / images.edit answer as api.openai.com sends it for gpt-image-1. */
export function imagesResponseBody(
  image: { b64?: string; url?: string },
  options: { outputFormat?: 'png' | 'jpeg' | 'webp'; size?: string; quality?: string } = {},
): Record<string, unknown> {
  return {
    created: 1_700_000_000,
    data: [{ ...(image.b64 !== undefined ? { b64_json: image.b64 } : {}), ...(image.url ? { url: image.url } : {}) }],
    output_format: options.outputFormat ?? 'png',
    size: options.size ?? '1024x1024',
    quality: options.quality ?? 'medium',
    background: 'opaque',
    usage: {
      input_tokens: 50,
      input_tokens_details: { image_tokens: 0, text_tokens: 50 },
      output_tokens: 1056,
      total_tokens: 1106,
    },
  };
}

/** A video object as the videos API returns it from create and retrieve. */
export function videoBody(input: {
  id: string;
  status: 'queued' | 'in_progress' | 'completed' | 'failed';
  progress?: number;
  model?: string;
  size?: string;
  seconds?: string;
  error?: { code: string; message: string } | null;
}): Record<string, unknown> {
  return {
    id: input.id,
    object: 'video',
    model: input.model ?? 'sora-2',
    status: input.status,
    progress: input.progress ?? (input.status === 'completed' ? 100 : 0),
    created_at: 1_700_000_000,
    completed_at: input.status === 'completed' ? 1_700_000_100 : null,
    expires_at: input.status === 'completed' ? 1_700_086_500 : null,
    prompt: 'fake',
    remixed_from_video_id: null,
    seconds: input.seconds ?? '4',
    size: input.size ?? '720x1280',
    error: input.error ?? null,
  };
}

/**
 * Signs a body the Standard Webhooks way, as OpenAI does: HMAC-SHA256 over
 * `{id}.{timestamp}.{body}` with the base64 part of a `whsec_` secret, header `v1,<base64>`.
 */
export function signStandardWebhook(
  secret: string,
  input: { id: string; timestampSeconds: number; body: string | Buffer },
): Record<string, string> {
  const key = secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
  const signature = createHmac('sha256', key)
    .update(`${input.id}.${input.timestampSeconds}.`)
    .update(input.body)
    .digest('base64');
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}

function send(res: ServerResponse, reply: FakeMediaReply): void {
  if ('drop' in reply) {
    res.socket?.destroy();
    return;
  }
  if ('hang' in reply) {
    if (reply.hang === 'mid-body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"created":1700000000,"data":[{"b64_json":"');
    }
    return;
  }
  if ('bytes' in reply) {
    res.writeHead(reply.status ?? 200, {
      'content-type': reply.contentType ?? 'application/octet-stream',
      'content-length': String(reply.bytes.length),
      ...reply.headers,
    });
    res.end(reply.bytes);
    return;
  }
  res.writeHead(reply.status ?? 200, {
    'content-type': 'application/json',
    'x-request-id': 'req_fake',
    ...reply.headers,
  });
  res.end(JSON.stringify(reply.body));
}

async function parseBody(headers: IncomingHttpHeaders, raw: Buffer): Promise<Pick<FakeMediaRequest, 'json' | 'form'>> {
  const contentType = headers['content-type'] ?? '';
  if (contentType.startsWith('multipart/form-data')) {
    // The platform's own multipart parser (undici), so the test sees what a real server would.
    const data = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    const fields: Record<string, string> = {};
    const files: FakeMediaFile[] = [];
    for (const [field, value] of data.entries()) {
      if (typeof value === 'string') fields[field] = value;
      else
        files.push({
          field,
          filename: value.name,
          contentType: value.type,
          bytes: Buffer.from(await value.arrayBuffer()),
        });
    }
    return { form: { fields, files } };
  }
  if (raw.length === 0) return {};
  try {
    return { json: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    return {};
  }
}

export async function startFakeOpenAIMediaServer(
  replies: FakeMediaResponder | readonly FakeMediaReply[],
): Promise<FakeMediaServer> {
  const requests: FakeMediaRequest[] = [];
  const respond: FakeMediaResponder =
    typeof replies === 'function'
      ? replies
      : (_request, index) =>
          replies[index] ?? mediaErrorReply(500, `fake server: no reply scripted for request #${index + 1}`);

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      void parseBody(req.headers, rawBody)
        .catch(() => ({}))
        .then((parsed) => {
          const request: FakeMediaRequest = {
            method: req.method ?? '',
            path: req.url ?? '',
            headers: req.headers,
            rawBody,
            ...parsed,
            receivedAt: Date.now(),
          };
          requests.push(request);
          send(res, respond(request, requests.length - 1));
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    requests,
    count: (method, path) => requests.filter((r) => r.method === method && r.path.split('?')[0] === path).length,
    close: () =>
      (closed ??= new Promise<void>((resolve, reject) => {
        // Hanging replies keep sockets open; close() alone would wait for them forever.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      })),
  };
}
