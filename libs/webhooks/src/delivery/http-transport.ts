export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export type DeliveryOutcome =
  | { ok: true; status: number }
  /** status null: no answer (refused, reset, timeout). */
  | { ok: false; status: number | null; error: string };

/** The one place deliveries leave the process; tests may put a fault-injecting one in front. */
export interface WebhookTransport {
  send(request: WebhookRequest, timeoutMs: number): Promise<DeliveryOutcome>;
}

/**
 * POST with Node's fetch. Redirects are not followed (a receiver must answer at its registered
 * URL; following would let it point deliveries elsewhere), and the response body is discarded
 * unread: only the status matters, 2xx being success.
 */
export class FetchWebhookTransport implements WebhookTransport {
  async send(request: WebhookRequest, timeoutMs: number): Promise<DeliveryOutcome> {
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
      return { ok: false, status: response.status, error: `HTTP ${response.status}` };
    } catch (error) {
      return { ok: false, status: null, error: describe(error, timeoutMs) };
    }
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: { code?: unknown; message?: unknown } }).cause;
    const detail =
      typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
    return detail === '' ? error.message : `${error.message}: ${detail}`;
  }
  return String(error);
}
