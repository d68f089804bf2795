import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig, type LomoConfig } from '@lomo/config';
import { silentLogger } from '@lomo/observability';
import { HealthRegistry } from '@lomo/platform';
import { ApiAppModule } from '../../../apps/api/src/api-app.module';
import { ProjectorAppModule } from '../../../apps/projector/src/projector-app.module';
import { RelayAppModule } from '../../../apps/relay/src/relay-app.module';

interface Probe {
  status: number;
  body: { status: string; checks?: Record<string, { status: string }> };
}

describe('/health/live, /health/ready and /health: what each probe consults', () => {
  let dir: string;
  const apps: INestApplication[] = [];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-health-'));
  });

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  const configFor = (dataDir: string): LomoConfig =>
    // The relay is off so nothing but the checks under test runs in the background.
    loadConfig({ LOMO_DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test', LOMO_RELAY: 'off' });

  async function start(module: DynamicModule): Promise<{ app: INestApplication; get: (p: string) => Promise<Probe> }> {
    const app = await NestFactory.create(module, { logger: false });
    apps.push(app);
    await app.listen(0, '127.0.0.1');
    const url = await app.getUrl();
    const get = async (p: string): Promise<Probe> => {
      const res = await fetch(`${url}${p}`);
      return { status: res.status, body: (await res.json()) as Probe['body'] };
    };
    return { app, get };
  }

  it('a dependency down: live stays 200, ready and the full report answer 503 naming it', async () => {
    const { app, get } = await start(RelayAppModule.register(configFor(dir), { logger: silentLogger }));
    expect((await get('/health/ready')).status).toBe(200);
    app.get(HealthRegistry).register({
      name: 'documentStore',
      check: () => Promise.reject(new Error('connection refused')),
    });

    expect(await get('/health/live')).toEqual({ status: 200, body: { status: 'up' } });
    const ready = await get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.checks?.documentStore).toEqual({ status: 'down', error: 'connection refused' });
    expect(ready.body.checks?.eventStore?.status).toBe('up');
    const full = await get('/health');
    expect(full.status).toBe(503);
    expect(full.body.checks?.documentStore?.status).toBe('down');
  });

  it('a report-only check (readiness: false) fails /health but not /health/ready', async () => {
    const { app, get } = await start(RelayAppModule.register(configFor(dir), { logger: silentLogger }));
    app.get(HealthRegistry).register({
      name: 'somebodyElsesLag',
      readiness: false,
      check: () => Promise.reject(new Error('120 s behind')),
    });
    const ready = await get('/health/ready');
    expect(ready.status).toBe(200);
    expect(Object.keys(ready.body.checks ?? {})).not.toContain('somebodyElsesLag');
    expect((await get('/health')).status).toBe(503);
  });

  it('projector lag fails readiness of the projector only: the API on the same stores stays ready', async () => {
    const config = configFor(dir);
    // Any lag at all is too much: the projector reports itself behind from its first sweep.
    const projector = await start(
      ProjectorAppModule.register(config, { logger: silentLogger, projector: { settings: { maxLagSeconds: -1 } } }),
    );
    const api = await start(ApiAppModule.register(config, { logger: silentLogger }));

    const projectorReady = await projector.get('/health/ready');
    expect(projectorReady.status).toBe(503);
    expect(projectorReady.body.checks?.projector?.status).toBe('down');
    expect((await projector.get('/health/live')).status).toBe(200);

    const apiReady = await api.get('/health/ready');
    expect(apiReady.status).toBe(200);
    // The API's readiness is about its own connections: the event store and the read models it serves.
    expect(Object.keys(apiReady.body.checks ?? {}).sort()).toEqual(['eventStore', 'readModels']);
    expect((await api.get('/health/live')).status).toBe(200);
  });
});
