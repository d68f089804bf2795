import { createToken, startStandaloneApi, type RunningApi } from '../api/support/standalone-api';
import { liveClient, subscribe, type LiveSubscription } from './support/live-client';

interface MainPayload {
  mainlineUpdated: { snapshot: boolean };
}

const MAINLINE = 'subscription { mainlineUpdated(first: 1) { snapshot } }';

const codeOf = (s: LiveSubscription<unknown>) =>
  s.end?.errors?.[0]?.extensions?.code ?? s.nextErrors[0]?.[0]?.extensions?.code;

describe('live API: authentication on connection and limits', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startStandaloneApi();
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
  });

  it.each([
    ['no token', undefined, 'UNAUTHENTICATED: Missing bearer token'],
    ['a malformed token', 'nope', 'UNAUTHENTICATED: Malformed bearer token'],
    ['an unknown token', `lomo_${'x'.repeat(43)}`, 'UNAUTHENTICATED: Unknown or revoked token'],
  ])('refuses a connection with %s: close 4401 and a typed reason', async (_what, token, reason) => {
    const client = liveClient(api, token);
    try {
      const refused = subscribe<MainPayload>(client, MAINLINE);
      expect(await refused.ended('the refusal')).toEqual({ close: { code: 4401, reason } });
    } finally {
      await client.dispose();
    }
  });

  it('closes the connection of a token revoked while it is open', async () => {
    const c = await createToken(api, 'ws_c', 'carol');
    const client = liveClient(api, c.token);
    try {
      const open = subscribe<MainPayload>(client, MAINLINE);
      await open.waitFor((p) => p.mainlineUpdated.snapshot, 'the snapshot');
      expect((await api.tokens(['revoke', c.id])).code).toBe(0);
      // The next subscribe re-checks the token (a periodic sweep catches idle connections too).
      const after = subscribe<MainPayload>(client, MAINLINE);
      const expected = { close: { code: 4401, reason: 'UNAUTHENTICATED: Token revoked' } };
      expect(await after.ended('the close')).toEqual(expected);
      expect(await open.ended('the close of the open one')).toEqual(expected);
    } finally {
      await client.dispose();
    }
  });

  it('holds a token to 20 subscriptions over all its connections; a completed one frees its slot', async () => {
    const d = await createToken(api, 'ws_d', 'dan');
    const clients = [liveClient(api, d.token), liveClient(api, d.token)];
    try {
      const open = Array.from({ length: 20 }, (_, i) => subscribe<MainPayload>(clients[i % 2], MAINLINE));
      for (const s of open) await s.waitFor((p) => p.mainlineUpdated.snapshot, 'a snapshot');
      const refused = subscribe<MainPayload>(clients[1], MAINLINE);
      const end = await refused.ended('the refusal');
      expect(end.errors?.[0]?.extensions).toMatchObject({ code: 'SUBSCRIPTION_LIMIT', maxSubscriptions: 20 });
      // Other tokens are not affected.
      const other = liveClient(api, api.devToken);
      const fine = subscribe<MainPayload>(other, MAINLINE);
      await fine.waitFor((p) => p.mainlineUpdated.snapshot, 'another token’s snapshot');
      await other.dispose();

      open[0].unsubscribe();
      const next = async () => {
        const again = subscribe<MainPayload>(clients[1], MAINLINE);
        await again.waitFor((p) => p.mainlineUpdated.snapshot, 'a snapshot once a slot is free', 0, 5_000);
      };
      // The client's complete reaches the server asynchronously: retry briefly.
      await expect(retry(next, 10)).resolves.toBeUndefined();
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it('runs only subscriptions over WebSocket, and refuses too-large messages', async () => {
    const client = liveClient(api, api.devToken);
    try {
      const query = subscribe<unknown>(client, '{ me { workspaceId } }');
      await query.ended('the refusal');
      expect(codeOf(query)).toBe('BAD_REQUEST');
      const huge = subscribe<unknown>(client, `subscription { mainlineUpdated { snapshot } } # ${'x'.repeat(200_000)}`);
      const end = await huge.ended('the close');
      expect(end.close?.code).toBe(1009);
    } finally {
      await client.dispose();
    }
  });
});

async function retry(attempt: () => Promise<void>, times: number): Promise<void> {
  for (let i = 1; ; i += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= times) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
