import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { waitFor } from '@lomo/bus/testing';
import type { GraphqlError, RunningApi } from '../../api/support/standalone-api';

/** How a subscription or its socket ended, as the graphql-ws client reports it. */
export interface LiveEnd {
  /** `error` message of the operation: the server's typed errors. */
  errors?: GraphqlError[];
  /** The socket closed: code and reason (`<CODE>: <message>` for the API's own closes). */
  close?: { code: number; reason: string };
  completed?: boolean;
}

/** One subscription's payloads as they arrive. */
export class LiveSubscription<T> {
  readonly payloads: T[] = [];
  /** `next` messages that carried errors instead of data. */
  readonly nextErrors: GraphqlError[][] = [];
  end: LiveEnd | undefined;
  private stop: () => void = () => undefined;

  constructor(client: Client, query: string, variables?: Record<string, unknown>) {
    this.stop = client.subscribe<T>(
      { query, ...(variables ? { variables } : {}) },
      {
        next: (result: FormattedExecutionResult<T>) => {
          if (result.errors) this.nextErrors.push(result.errors as GraphqlError[]);
          else if (result.data) this.payloads.push(result.data);
        },
        error: (error: unknown) => {
          this.end = Array.isArray(error)
            ? { errors: error as GraphqlError[] }
            : isClose(error)
              ? { close: { code: error.code, reason: error.reason } }
              : { errors: [{ message: String(error) }] };
        },
        complete: () => {
          this.end ??= { completed: true };
        },
      },
    );
  }

  /** Waits for a payload at or after `from` that satisfies `accept`; returns its index. */
  async waitFor(accept: (payload: T) => boolean, what: string, from = 0, timeoutMs = 20_000): Promise<number> {
    let found = -1;
    await waitFor(
      () => {
        found = this.payloads.findIndex((p, i) => i >= from && accept(p));
        if (found < 0 && this.end !== undefined) {
          throw new Error(`${what}: ended ${JSON.stringify({ end: this.end, nextErrors: this.nextErrors })}`);
        }
        return found >= 0;
      },
      what,
      timeoutMs,
      20,
    );
    return found;
  }

  async ended(what: string, timeoutMs = 10_000): Promise<LiveEnd> {
    await waitFor(() => this.end !== undefined, what, timeoutMs, 20);
    return this.end as LiveEnd;
  }

  unsubscribe(): void {
    this.stop();
  }
}

function isClose(error: unknown): error is { code: number; reason: string } {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'number';
}

/** A real graphql-ws client (the `graphql-ws` package over `ws`) against the running app. */
export function liveClient(api: RunningApi, token: string | undefined): Client {
  return createClient({
    url: `${api.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token === undefined ? {} : { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: true,
  });
}

export function subscribe<T>(client: Client, query: string, variables?: Record<string, unknown>): LiveSubscription<T> {
  return new LiveSubscription<T>(client, query, variables);
}
