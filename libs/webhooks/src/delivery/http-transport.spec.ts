import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpWebhookTransport } from './http-transport';

describe('HttpWebhookTransport', () => {
  let server: Server;
  let port: number;
  const seen: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => res.writeHead(req.url === '/gone' ? 410 : 204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const transport = new HttpWebhookTransport();
  const post = (url: string, address?: string) =>
    transport.send(
      { url, body: '{}', headers: {}, address: address === undefined ? undefined : { address, family: 4 } },
      2_000,
    );

  it('connects to the pinned address, not to what the name resolves to, and keeps the name as Host', async () => {
    // `.invalid` never resolves (RFC 6761): only the pinned lookup can reach the server.
    await expect(post(`http://hooks.invalid:${port}/x`, '127.0.0.1')).resolves.toEqual({ ok: true, status: 204 });
    expect(seen.at(-1)?.host).toBe(`hooks.invalid:${port}`);
  });

  it('reaches nothing else: pinned to another loopback address, where nothing listens, the connection is refused', async () => {
    const outcome = await post(`http://localhost:${port}/x`, '127.0.0.2');
    expect(outcome).toMatchObject({ ok: false, status: null });
    expect(outcome.ok === false && outcome.error).toMatch(/ECONNREFUSED 127\.0\.0\.2/);
  });

  it('answers a non-2xx status as a failure with the status', async () => {
    await expect(post(`http://127.0.0.1:${port}/gone`)).resolves.toEqual({ ok: false, status: 410, error: 'HTTP 410' });
  });
});
