import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { sleep } from './drill-app';

export interface GraphqlError {
  message: string;
  extensions?: Record<string, unknown>;
}

/** A GraphQL answer with errors, kept typed so a scenario's failure says which call and why. */
export class DrillApiError extends Error {
  constructor(
    readonly operation: string,
    readonly errors: GraphqlError[],
    readonly status: number,
  ) {
    super(`${operation}: ${errors.map((e) => `${String(e.extensions?.code ?? 'ERROR')} ${e.message}`).join('; ')}`);
    this.name = 'DrillApiError';
  }
}

export class DrillTimeoutError extends Error {
  constructor(what: string, timeoutMs: number, last: unknown) {
    super(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${JSON.stringify(last)?.slice(0, 1500)}`);
    this.name = 'DrillTimeoutError';
  }
}

/**
 * The person's side of the public API: GraphQL over HTTP for commands and reads, and one
 * graphql-ws subscription to the workspace's event feed that wakes every wait. Waits re-read the
 * state when an event arrives (read models catch up right after), with a slow re-check as a net
 * for a notice that lands before the read model does; no wait sleeps a fixed time.
 */
export class DrillClient {
  private ws: Client | undefined;
  private unsubscribe: (() => void) | undefined;
  private wakers = new Set<() => void>();
  /** Event types the feed delivered, in order (diagnostics only: the metrics read the log). */
  readonly feed: Array<{ type: string; streamId: string }> = [];
  feedError: string | undefined;
  /** Called with each feed event as it arrives (the fault driver watches the feed through it). */
  readonly feedListeners = new Set<(event: { type: string; streamId: string }, index: number) => void>();
  /** Set while the harness restarts the app (a fault run): requests wait for it, reads that fail on the dead socket retry after it. */
  private outage: Promise<void> | undefined;
  private mutationsInFlight = 0;

  constructor(
    private url: string,
    readonly token: string,
  ) {}

  /** After a restart the app listens on another port; resubscribe from the last cursor. */
  async reconnect(url: string): Promise<void> {
    this.close();
    this.url = url;
    await this.connect();
  }

  private cursor: string | undefined;

  async connect(): Promise<void> {
    this.ws = createClient({
      url: `${this.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${this.token}` },
      retryAttempts: 0,
      lazy: true,
    });
    let first = true;
    const opened = new Promise<void>((resolve) => {
      this.unsubscribe = this.ws!.subscribe<{
        eventFeed: { cursor: string; event: { type: string; streamId: string } };
      }>(
        {
          query: 'subscription($after: String) { eventFeed(after: $after) { cursor event { type streamId } } }',
          variables: this.cursor === undefined ? {} : { after: this.cursor },
        },
        {
          next: (result) => {
            const item = result.data?.eventFeed;
            if (item !== undefined) {
              this.cursor = item.cursor;
              this.feed.push(item.event);
              for (const listen of this.feedListeners) listen(item.event, this.feed.length - 1);
            }
            if (first) {
              first = false;
              resolve();
            }
            for (const wake of this.wakers) wake();
          },
          error: (error) => {
            this.feedError = JSON.stringify(error);
            resolve();
          },
          complete: () => resolve(),
        },
      );
    });
    // The feed replays the workspace from its start; an empty workspace sends nothing yet.
    await Promise.race([opened, sleep(500)]);
  }

  close(): void {
    this.unsubscribe?.();
    void this.ws?.dispose();
    this.ws = undefined;
  }

  /**
   * Runs `restart` (kill the app and start it again) with the person's requests held: no mutation
   * is in flight when it starts (so none is cut in half), every request waits until the app is
   * back, then the feed is resubscribed from its last cursor on `url()`.
   */
  async duringOutage(restart: () => Promise<void>, url: () => string): Promise<void> {
    let end: () => void = () => undefined;
    const outage = new Promise<void>((resolve) => (end = resolve));
    this.outage = outage;
    try {
      while (this.mutationsInFlight > 0) await sleep(10);
      await restart();
      await this.reconnect(url());
    } finally {
      this.outage = undefined;
      end();
    }
  }

  async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const mutation = query.trimStart().startsWith('mutation');
    for (;;) {
      while (this.outage !== undefined) await this.outage;
      if (mutation) this.mutationsInFlight += 1;
      let status: number;
      let text: string;
      try {
        const response = await fetch(`${this.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
          body: JSON.stringify({ query, variables }),
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        // A read cut by the harness's kill is read again once the app is back; anything else fails.
        if (!mutation && this.outage !== undefined) continue;
        throw error;
      } finally {
        if (mutation) this.mutationsInFlight -= 1;
      }
      return this.answer<T>(query, status, text);
    }
  }

  private answer<T>(query: string, status: number, text: string): T {
    const body = JSON.parse(text) as { data?: T | null; errors?: GraphqlError[] };
    const operation = /\b(\w+)\s*[({]/.exec(query.replace(/^\s*(query|mutation)[^{]*\{/, ''))?.[1] ?? 'query';
    if (body.errors !== undefined && body.errors.length > 0) throw new DrillApiError(operation, body.errors, status);
    if (body.data == null) throw new DrillApiError(operation, [{ message: 'no data' }], status);
    return body.data;
  }

  /** Re-reads `read` on every feed event (and every `recheckMs` as a net) until `accept` holds. */
  async until<T>(
    what: string,
    read: () => Promise<T>,
    accept: (value: T) => boolean,
    timeoutMs = 120_000,
    recheckMs = 1_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: T | undefined;
    for (;;) {
      let woke: () => void = () => undefined;
      const wake = new Promise<void>((resolve) => (woke = resolve));
      this.wakers.add(woke);
      try {
        last = await read();
        if (accept(last)) return last;
        const left = deadline - Date.now();
        if (left <= 0) throw new DrillTimeoutError(what, timeoutMs, last);
        await Promise.race([wake, sleep(Math.min(recheckMs, left))]);
        // Let a burst of events land before reading again.
        await sleep(30);
      } finally {
        this.wakers.delete(woke);
      }
    }
  }
}
