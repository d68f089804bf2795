import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryBody } from '@lomo/webhooks';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: DeliveryBody;
  /** The status this server answered. */
  status: number;
}

/** Answers a request: a status, or a delay (ms) before answering 200, to outlast the client. */
export type Responder = (request: Omit<ReceivedRequest, 'status'>) => number | { delayMs: number };

/** A webhook receiver on 127.0.0.1 that records every request and answers as told. */
export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  private responder: Responder = () => 200;
  private readonly server: Server = createServer((req, res) => this.handle(req, res));

  static async start(responder?: Responder): Promise<TestReceiver> {
    const receiver = new TestReceiver();
    if (responder) receiver.respondWith(responder);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  respondWith(responder: Responder): void {
    this.responder = responder;
  }

  /** Requests answered 2xx, in arrival order. */
  get accepted(): ReceivedRequest[] {
    return this.requests.filter((r) => r.status >= 200 && r.status < 300);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const request = { headers: req.headers, rawBody, body: parse(rawBody) };
      const answer = this.responder(request);
      const status = typeof answer === 'number' ? answer : 200;
      this.requests.push({ ...request, status });
      const send = () => res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
      if (typeof answer === 'number') send();
      else setTimeout(send, answer.delayMs);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function parse(raw: string): DeliveryBody {
  try {
    return JSON.parse(raw) as DeliveryBody;
  } catch {
    // Tests post tampered bodies too; the signature check is what rejects them.
    return { type: '', data: null, metadata: {} as DeliveryBody['metadata'], cursor: '' };
  }
}

export const header = (request: { headers: IncomingHttpHeaders }, name: string): string | undefined => {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};
