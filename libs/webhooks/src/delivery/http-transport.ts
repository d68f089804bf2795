import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from '../webhooks/host-resolver.port';

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /**
   * The vetted address to connect to (webhook-target.ts), instead of resolving the URL's host
   * again: a second lookup could answer differently (DNS rebinding). Absent when no rule applies
   * (outside production, allowlisted hosts): the host is resolved as usual.
   */
  address?: ResolvedAddress;
}

export type DeliveryOutcome =
  | { ok: true; status: number }
  /** status null: no answer (refused, reset, timeout), or not sent (target refused, DNS failure). */
  | { ok: false; status: number | null; error: string };

/** The one place deliveries leave the process; tests may put a fault-injecting one in front. */
export interface WebhookTransport {
  send(request: WebhookRequest, timeoutMs: number): Promise<DeliveryOutcome>;
}

/**
 * POST with node:http(s). Not fetch: Node 20's fetch is undici, and pinning its connection to an
 * address needs an undici Agent, which is not a dependency here; node:http(s) take a `lookup`
 * function, so the socket goes to `request.address` while the Host header, TLS SNI and
 * certificate check still use the URL's host name. Redirects are not followed (a receiver must
 * answer at its registered URL; following would let it point deliveries elsewhere, past the
 * address check), and the response body is discarded unread: only the status matters, 2xx being
 * success. Pooled keep-alive sockets are keyed by host and port, and each was opened to a vetted
 * address, so reusing one never reaches an unvetted address.
 */
export class HttpWebhookTransport implements WebhookTransport {
  send(request: WebhookRequest, timeoutMs: number): Promise<DeliveryOutcome> {
    const url = new URL(request.url);
    const signal = AbortSignal.timeout(timeoutMs);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<DeliveryOutcome>((resolve) => {
      const req = send(
        url,
        {
          method: 'POST',
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
          signal,
          ...(request.address === undefined ? {} : { lookup: pinnedLookup(request.address) }),
        },
        (response: IncomingMessage) => {
          const status = response.statusCode ?? 0;
          response.resume();
          response.on('error', () => undefined);
          if (status >= 200 && status < 300) resolve({ ok: true, status });
          else resolve({ ok: false, status, error: `HTTP ${status}` });
        },
      );
      req.on('error', (error) => resolve({ ok: false, status: null, error: describe(error, signal, timeoutMs) }));
      req.end(request.body);
    });
  }
}

/**
 * Answers every lookup with the vetted address. Node 20 asks with `all: true` when it races
 * address families (net autoSelectFamily, on by default) and expects a list; otherwise one address.
 */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all === true) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}

function describe(error: Error, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `no answer within ${timeoutMs} ms`;
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code) ? `${error.message}: ${code}` : error.message;
}
