import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MongoClient } from 'mongodb';
import { loadConfig } from '@lomo/config';
import { silentLogger } from '@lomo/observability';
import { API_TOKENS } from '@lomo/api';
import type { ApiTokens } from '@lomo/auth';
import { mongoUrl } from '@lomo/read-models/testing';
import { ApiAppModule } from '../../apps/api/src/api-app.module';
import type { RunningApi } from '../integration/api/support/standalone-api';
import { liveClient, subscribe } from '../integration/live/support/live-client';

jest.setTimeout(120_000);

/**
 * Two API instances (in-process Nest apps of apps/api, each with its own MongoDB client and token
 * cache) on one MongoDB-wire server: the token store is shared, so a token issued through one is
 * accepted by the other, and a revocation reaches both within LOMO_AUTH_TOKEN_CACHE_MS (5 s).
 */
describe('API tokens across two API instances on FerretDB', () => {
  const database = `lomo_test_tokens_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let dataDir: string;
  const apps: INestApplication[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'lomo-two-apis-'));
    for (const name of ['a', 'b']) {
      const config = loadConfig({
        NODE_ENV: 'test',
        LOMO_MODE: 'distributed',
        LOMO_DATA_DIR: path.join(dataDir, name),
        // One event store file and bus log for both, as processes on one host would share them.
        LOMO_SQLITE_PATH: path.join(dataDir, 'events.sqlite'),
        LOMO_BUS_PATH: path.join(dataDir, 'bus.sqlite'),
        LOMO_RELAY: 'off',
        MONGODB_URL: mongoUrl(),
        MONGODB_DATABASE: database,
        HOST: '127.0.0.1',
        PORT: '0',
      });
      const app = await NestFactory.create(ApiAppModule.register(config, { logger: silentLogger }), {
        logger: ['error'],
      });
      await app.listen(0, '127.0.0.1');
      apps.push(app);
      urls.push((await app.getUrl()).replace('[::1]', '127.0.0.1'));
    }
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    const client = new MongoClient(mongoUrl());
    await client.connect();
    await client.db(database).dropDatabase();
    await client.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const gql = async (url: string, token: string, query: string) => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as { data?: unknown; errors?: Array<{ extensions?: { code?: string } }> };
    return { status: response.status, data: body.data ?? null, code: body.errors?.[0]?.extensions?.code };
  };

  it('a token created through one instance is accepted by the other; revoked, it is refused by both within 5 s', async () => {
    const issued = await apps[0].get<ApiTokens>(API_TOKENS).issue({ workspaceId: 'ws_two', userId: 'u1' });
    for (const url of urls) {
      expect(await gql(url, issued.secret, '{ me { workspaceId userId } }')).toMatchObject({
        status: 200,
        data: { me: { workspaceId: 'ws_two', userId: 'u1' } },
      });
    }
    const revokedAt = Date.now();
    expect(await apps[0].get<ApiTokens>(API_TOKENS).revoke(issued.record.id)).toBe('revoked');
    // The revoking instance refuses at once; the other once its cache entry (≤ 5 s) expires.
    expect(await gql(urls[0], issued.secret, '{ me { userId } }')).toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    const refusedAfter: number[] = [];
    for (const url of urls) {
      for (;;) {
        const answer = await gql(url, issued.secret, '{ me { userId } }');
        if (answer.status === 401) {
          expect(answer.code).toBe('UNAUTHENTICATED');
          refusedAfter.push(Date.now() - revokedAt);
          break;
        }
        expect(Date.now() - revokedAt).toBeLessThan(5_000 + 1_000);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    expect(Math.max(...refusedAfter)).toBeLessThanOrEqual(5_000 + 500);
  });

  it('a person token cannot act as an operator on either instance (FORBIDDEN, typed); an operator token can', async () => {
    const tokens = apps[1].get<ApiTokens>(API_TOKENS);
    const person = await tokens.issue({ workspaceId: 'ws_two', userId: 'u2' });
    const operator = await tokens.issue({ workspaceId: 'support', userId: 'sam', kind: 'operator' });
    const sent = await gql(urls[0], person.secret, 'mutation { sendMessage(text: "hello") { messageId } }');
    expect(sent).toMatchObject({ status: 200, data: { sendMessage: { messageId: expect.any(String) } } });
    const feed = 'subscription($ws: String) { eventFeed(workspaceId: $ws) { event { type streamId } } }';
    for (const url of urls) {
      const personClient = liveClient({ url } as RunningApi, person.secret);
      const operatorClient = liveClient({ url } as RunningApi, operator.secret);
      try {
        // The workspace argument is the operator-only part: a person naming another is refused.
        const refused = subscribe(personClient, feed, { ws: 'support' });
        const end = await refused.ended('the refusal');
        // graphql-ws reports a resolver's refusal as an error message or as a result with errors.
        expect(end.errors?.[0]?.extensions?.code ?? refused.nextErrors[0]?.[0]?.extensions?.code).toBe('FORBIDDEN');
        expect(refused.payloads).toEqual([]);
        const read = subscribe<{ eventFeed: { event: { type: string; streamId: string } } }>(operatorClient, feed, {
          ws: 'ws_two',
        });
        await read.waitFor(
          (p) => p.eventFeed.event.streamId === 'main-ws_two.u2' && p.eventFeed.event.type === 'UserMessageReceived',
          "the operator reads another workspace's main line",
        );
        read.unsubscribe();
      } finally {
        await personClient.dispose();
        await operatorClient.dispose();
      }
    }
  });
});
