import type { IncomingMessage } from 'node:http';

/**
 * The client address of a request Express does not see (a WebSocket upgrade), decided as Express
 * decides `req.ip` with a numeric `trust proxy` (expressjs.com/en/guide/behind-proxies.html): the
 * socket's peer, or with `trustProxy` hops trusted, the address that many entries back in
 * `X-Forwarded-For`. 0 trusts no proxy: a client can write any address into that header.
 */
export function clientAddress(request: IncomingMessage, trustProxy: number): string {
  const peer = request.socket.remoteAddress ?? 'unknown';
  if (trustProxy === 0) return peer;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const chain = [peer, ...forwarded.reverse()];
  return chain[Math.min(trustProxy, chain.length - 1)];
}
