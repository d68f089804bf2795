import type { Server, WebSocket as GraphqlWsSocket } from 'graphql-ws';
import type { RawData, WebSocket } from 'ws';
import type { Logger } from '@lomo/observability';
import type { LiveConnection, LiveExtra } from './live-connection';

const INTERNAL_ERROR = 4500;

function text(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * Binds one `ws` socket to the graphql-ws protocol server: sends resolve only once the frame is
 * written (so graphql-ws pulls the next payload only when the socket drains), pings keep idle
 * connections honest, and the protocol server hears of the close so every operation is ended.
 */
export function bindSocket(
  server: Server<LiveExtra>,
  connection: LiveConnection,
  options: { keepAliveMs: number; logger: Logger },
): Promise<void> {
  const { socket } = connection;
  const adapter: GraphqlWsSocket = {
    protocol: socket.protocol,
    send: (data) =>
      new Promise<void>((resolve, reject) => {
        if (socket.readyState !== socket.OPEN) return resolve();
        socket.send(data, (error) => (error ? reject(error) : resolve()));
      }),
    close: (code, reason) => socket.close(code, reason),
    onMessage: (handle) =>
      socket.on('message', (data) => {
        handle(text(data)).catch((error: unknown) => {
          options.logger.error(
            { connectionId: connection.id, error: error instanceof Error ? error.message : String(error) },
            'graphql-ws message handling failed',
          );
          socket.close(INTERNAL_ERROR, 'Internal server error');
        });
      }),
  };
  const closed = server.opened(adapter, { connection });
  const keepAlive = keepAliveTimer(socket, options.keepAliveMs);
  socket.on('error', (error) =>
    options.logger.warn({ connectionId: connection.id, error: error.message }, 'graphql-ws socket error'),
  );
  return new Promise<void>((resolve) => {
    socket.once('close', (code, reason) => {
      clearInterval(keepAlive);
      closed(code, reason.toString('utf8')).then(resolve, (error: unknown) => {
        options.logger.error(
          { connectionId: connection.id, error: error instanceof Error ? error.message : String(error) },
          'graphql-ws close handling failed',
        );
        resolve();
      });
    });
  });
}

/** A peer that has not answered the previous ping by the next one is dropped. */
function keepAliveTimer(socket: WebSocket, intervalMs: number): NodeJS.Timeout {
  let alive = true;
  socket.on('pong', () => {
    alive = true;
  });
  const timer = setInterval(() => {
    if (!alive) {
      socket.terminate();
      return;
    }
    alive = false;
    socket.ping();
  }, intervalMs);
  timer.unref();
  return timer;
}
