import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { ConnectionIdentity } from './connection-auth';

/** One graphql-ws socket: who it authenticated as, and the operations it holds slots for. */
export interface LiveConnection {
  id: string;
  socket: WebSocket;
  request: IncomingMessage;
  /** Set once connection_init carried a live token. */
  identity: ConnectionIdentity | undefined;
  /** graphql-ws operation ids holding a subscription slot. */
  operations: Set<string>;
}

/** What graphql-ws hands back to the hooks as `ctx.extra`. */
export interface LiveExtra {
  connection: LiveConnection;
}
