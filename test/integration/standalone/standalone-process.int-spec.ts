import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { waitFor } from '@lomo/bus/testing';
import { eventSamples, sampleIds } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';

const root = path.resolve(__dirname, '../../..');

/** The embedded backend as a real OS process, the way `npm start` runs it. */
function startStandalone(dataDir: string): {
  child: ChildProcessWithoutNullStreams;
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['-r', './scripts/register.cjs', 'apps/standalone/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', LOMO_DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'test' },
  });
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const p of parts) if (p.startsWith('{')) lines.push(JSON.parse(p));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, exited };
}

describe('standalone process (npm start)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-standalone-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serves /health and Prometheus /metrics, relays appended events, and on SIGTERM exits 0 with the relay checkpoint flushed', async () => {
    const app = startStandalone(dir);
    try {
      await waitFor(() => app.lines.some((l) => l.msg === 'lomo standalone started'), 'start', 20_000);
      const url = app.lines.find((l) => l.msg === 'lomo standalone started')?.url as string;

      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({
        status: 'up',
        checks: { eventStore: { status: 'up' }, relay: { status: 'up' } },
      });

      // Another process appends to the shared file; the app's relay must publish it.
      const writer = new SqliteEventStore({ filename: path.join(dir, 'events.sqlite') });
      const appended = await writer.append(
        `turn-${sampleIds.turnId}`,
        [
          {
            eventId: sampleIds.messageId,
            type: 'TurnStarted',
            data: eventSamples.TurnStarted.valid,
            metadata: {
              correlationId: 'c-1',
              causationId: null,
              workspaceId: 'ws1',
              actor: { kind: 'system', component: 'test' },
            },
          },
        ],
        'no_stream',
      );
      const scrape = async () => await (await fetch(`${url}/metrics`)).text();
      await waitFor(
        async () => /lomo_relay_published_events 1\b/.test(await scrape()),
        'relay to publish the event',
        10_000,
      );
      const metrics = await scrape();
      expect(metrics).toContain('# TYPE lomo_relay_published_events gauge');
      expect(metrics).toContain('lomo_process_cpu_user_seconds_total');

      app.child.kill('SIGTERM');
      expect(await app.exited).toBe(0);
      expect(app.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['stop requested', 'shut down cleanly']));
      expect(await writer.getCheckpoint('bus-relay')).toBe(appended.position);
      await writer.close();
    } finally {
      if (app.child.exitCode === null) app.child.kill('SIGKILL');
    }
  }, 60_000);

  it('refuses to start on a wrong configuration value, naming the variable', async () => {
    const child = spawn(process.execPath, ['-r', './scripts/register.cjs', 'apps/standalone/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: 'eighty', LOMO_DATA_DIR: dir },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/PORT/);
  }, 30_000);
});
