/**
 * npm run bench:recovery: repeated SIGKILL and restart of the standalone process with turns in
 * flight, and how long until each interrupted turn shows progress again.
 *
 * The process is bench/recovery/standalone-with-effect-log.ts (the standalone app, run from
 * source, every tool call slowed to BENCH_TOOL_DELAY_MS and every real effect logged with its
 * idempotency key). Each round sends messages through the GraphQL API (the offline model answers a
 * note request with notes.create), waits until they are inside their tool calls, kills the process
 * with SIGKILL and starts it again on the same data directory.
 *
 * An interrupted turn is one the event log shows running (leased, not ended, not waiting) once the
 * process is dead. It shows progress again at the first of: a TurnLeased with a higher generation
 * followed by a step or ledger event (ModelStepCommitted, ToolCallStarted, ToolCallCompleted,
 * ToolCallOutcomeUnknown, TurnWaiting), or the turn ending. Its time is that event's occurredAt,
 * measured from the restart's spawn (and, second, from the kill).
 *
 * Env: RECOVERY_KILLS (20), RECOVERY_TURNS_PER_KILL (3), BENCH_TOOL_DELAY_MS (3000).
 * Ends with one JSON line: {"kills","resume_p50_s","resume_p99_s","duplicate_effects"}.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventEnvelope } from '@lomo/contracts';
import { SqliteEventStore, type Position } from '@lomo/eventstore';
import { countEffectsByKey } from '@lomo/tools/testing';
import { gqlData } from '../test/distributed/multi-process/api-client';

const root = resolve(__dirname, '..');
const ENTRY = 'bench/recovery/standalone-with-effect-log.ts';
const KILLS = Number(process.env.RECOVERY_KILLS ?? '20');
const TURNS_PER_KILL = Number(process.env.RECOVERY_TURNS_PER_KILL ?? '3');
const TOOL_DELAY_MS = Number(process.env.BENCH_TOOL_DELAY_MS ?? '3000');
/** Bounds of one round, so the whole run stays bounded (20 rounds: well under 10 minutes). */
const START_TIMEOUT_MS = 30_000;
const IN_FLIGHT_TIMEOUT_MS = 20_000;
const PROGRESS_TIMEOUT_MS = 60_000;

const TURN_EVENT_TYPES = [
  'TurnStarted',
  'TurnLeased',
  'ModelStepCommitted',
  'ToolCallStarted',
  'ToolCallCompleted',
  'ToolCallOutcomeUnknown',
  'TurnWaiting',
  'TurnResumed',
  'TurnCompleted',
  'TurnFailed',
  'TurnCancelled',
];
const PROGRESS = new Set([
  'ModelStepCommitted',
  'ToolCallStarted',
  'ToolCallCompleted',
  'ToolCallOutcomeUnknown',
  'TurnWaiting',
]);
const ENDED = new Set(['TurnCompleted', 'TurnFailed', 'TurnCancelled']);

interface TurnLog {
  turnId: string;
  events: { type: string; generation: number; at: number; callId?: string }[];
}

/** The turn streams as far as read, caught up incrementally from the shared SQLite file. */
class TurnLogs {
  readonly turns = new Map<string, TurnLog>();
  private position: Position | 'start' = 'start';
  constructor(private readonly store: SqliteEventStore) {}

  async catchUp(): Promise<void> {
    for (;;) {
      const page = await this.store.readAll({
        fromPosition: this.position,
        filter: { eventTypes: TURN_EVENT_TYPES },
        maxCount: 1_000,
      });
      for (const e of page) this.apply(e);
      if (page.length > 0) this.position = page[page.length - 1].metadata.globalPosition;
      if (page.length < 1_000) return;
    }
  }

  private apply(e: EventEnvelope): void {
    const turnId = e.metadata.streamId.slice('turn-'.length);
    const log = this.turns.get(turnId) ?? { turnId, events: [] };
    this.turns.set(turnId, log);
    const data = e.data as { generation?: number; callId?: string };
    log.events.push({
      type: e.type,
      generation: e.type === 'TurnLeased' ? (data.generation ?? 0) : (e.metadata.generation ?? 0),
      at: Date.parse(e.metadata.occurredAt),
      ...(data.callId !== undefined ? { callId: data.callId } : {}),
    });
  }
}

/** Running (leased, not waiting, not ended) with its generation, or undefined. */
function running(log: TurnLog): { generation: number } | undefined {
  let generation = 0;
  let status: 'queued' | 'running' | 'waiting' | 'ended' = 'queued';
  for (const e of log.events) {
    if (e.type === 'TurnLeased') {
      generation = e.generation;
      status = 'running';
    } else if (e.type === 'TurnWaiting') status = 'waiting';
    else if (e.type === 'TurnResumed') status = 'queued';
    else if (ENDED.has(e.type)) status = 'ended';
  }
  return status === 'running' ? { generation } : undefined;
}

/** A started call with no result yet: the turn is inside a tool. */
function insideCall(log: TurnLog): boolean {
  const open = new Set<string>();
  for (const e of log.events) {
    if (e.type === 'ToolCallStarted' && e.callId) open.add(e.callId);
    if ((e.type === 'ToolCallCompleted' || e.type === 'ToolCallOutcomeUnknown') && e.callId) open.delete(e.callId);
  }
  return open.size > 0 && running(log) !== undefined;
}

/** When the turn showed progress after the kill, under a generation above `generation`. */
function progressAt(log: TurnLog, generation: number, killedAt: number): number | undefined {
  let retaken = false;
  for (const e of log.events) {
    if (e.at < killedAt) continue;
    if (ENDED.has(e.type)) return e.at;
    if (e.type === 'TurnLeased' && e.generation > generation) retaken = true;
    else if (retaken && PROGRESS.has(e.type) && e.generation > generation) return e.at;
  }
  return undefined;
}

interface Standalone {
  child: ChildProcessWithoutNullStreams;
  url: string;
  token: string;
  exited: Promise<void>;
  stderr: () => string;
}

async function start(dataDir: string, effectLog: string): Promise<Standalone> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOMO_DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    NODE_ENV: 'test',
    BENCH_EFFECT_LOG: effectLog,
    BENCH_TOOL_DELAY_MS: String(TOOL_DELAY_MS),
  };
  // The kept identity in the data dir is what this bench measures; a set id would bypass it.
  delete env.LOMO_WORKER_ID;
  const child = spawn(process.execPath, ['-r', './scripts/register.cjs', ENTRY], { cwd: root, env });
  let url: string | undefined;
  let token: string | undefined;
  let buffer = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const p of parts) {
      if (!p.startsWith('{')) continue;
      const line = JSON.parse(p) as { msg?: string; url?: string; devToken?: string };
      if (line.devToken !== undefined) token = line.devToken;
      if (line.msg === 'lomo standalone started') url = line.url;
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4_000)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (url === undefined || token === undefined) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`standalone did not start (exit ${child.exitCode})\n${stderr}`);
    await sleep(20);
  }
  return { child, url, token, exited, stderr: () => stderr };
}

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
const seconds = (ms: number) => Number((ms / 1000).toFixed(3));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lomo-bench-recovery-'));
  const dataDir = join(dir, 'data');
  const effectLog = join(dir, 'effects.jsonl');
  const fromSpawn: number[] = [];
  const fromKill: number[] = [];
  const startup: number[] = [];
  let kills = 0;
  let stalled = 0;
  let app = await start(dataDir, effectLog);
  const store = new SqliteEventStore({ filename: join(dataDir, 'events.sqlite') });
  const logs = new TurnLogs(store);
  const began = Date.now();
  try {
    for (let round = 0; round < KILLS; round += 1) {
      await logs.catchUp();
      const earlier = new Set(logs.turns.keys());
      for (let i = 0; i < TURNS_PER_KILL; i += 1)
        await gqlData(app.url, app.token, 'mutation($text: String!) { sendMessage(text: $text) { messageId } }', {
          text: `Please take a note: recovery round ${round + 1}, item ${i + 1}`,
        });
      // Kill once this round's turns are inside their tool calls (or at the bound, with what runs).
      const inFlightBy = Date.now() + IN_FLIGHT_TIMEOUT_MS;
      for (;;) {
        await logs.catchUp();
        const inside = [...logs.turns.values()].filter((log) => !earlier.has(log.turnId) && insideCall(log)).length;
        if (inside >= TURNS_PER_KILL || Date.now() > inFlightBy) break;
        await sleep(50);
      }
      app.child.kill('SIGKILL');
      const killedAt = Date.now();
      await app.exited;
      kills += 1;
      await logs.catchUp();
      const interrupted = [...logs.turns.values()]
        .map((log) => ({ log, held: running(log) }))
        .filter((t): t is { log: TurnLog; held: { generation: number } } => t.held !== undefined);

      const spawnedAt = Date.now();
      app = await start(dataDir, effectLog);
      startup.push(Date.now() - spawnedAt);
      const progressBy = Date.now() + PROGRESS_TIMEOUT_MS;
      const pending = new Map(interrupted.map((t) => [t.log.turnId, t.held.generation]));
      while (pending.size > 0 && Date.now() < progressBy) {
        await logs.catchUp();
        for (const [turnId, generation] of pending) {
          const at = progressAt(logs.turns.get(turnId)!, generation, killedAt);
          if (at === undefined) continue;
          fromSpawn.push(at - spawnedAt);
          fromKill.push(at - killedAt);
          pending.delete(turnId);
        }
        if (pending.size > 0) await sleep(25);
      }
      stalled += pending.size;
      const resumed = interrupted.length - pending.size;
      const last = resumed > 0 ? fromSpawn.slice(-resumed) : [];
      console.log(
        `kill ${kills}: ${interrupted.length} turns interrupted, ${pending.size} without progress; ` +
          `started in ${seconds(startup.at(-1)!)} s; progress after ${last.map((ms) => seconds(ms)).join(', ')} s from spawn`,
      );
    }
    // Let every message's turn finish, so the effect count covers whole turns.
    const settleBy = Date.now() + PROGRESS_TIMEOUT_MS;
    while (Date.now() < settleBy) {
      await logs.catchUp();
      const ended = [...logs.turns.values()].filter((log) => log.events.some((e) => ENDED.has(e.type))).length;
      if (ended >= KILLS * TURNS_PER_KILL) break;
      await sleep(100);
    }
  } finally {
    app.child.kill('SIGTERM');
    await app.exited;
    await store.close();
  }

  await logs.catchUp().catch(() => undefined);
  const effects = countEffectsByKey(effectLog);
  const duplicates = [...effects.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  const ended = [...logs.turns.values()].filter((log) => log.events.some((e) => ENDED.has(e.type))).length;
  const spawnSorted = [...fromSpawn].sort((a, b) => a - b);
  const killSorted = [...fromKill].sort((a, b) => a - b);
  const startSorted = [...startup].sort((a, b) => a - b);
  console.log(
    `${kills} kills, ${fromSpawn.length} interrupted turns resumed, ${stalled} without progress within ${PROGRESS_TIMEOUT_MS / 1000} s`,
  );
  console.log(
    `resume from restart spawn: p50 ${seconds(percentile(spawnSorted, 0.5))} s, p99 ${seconds(percentile(spawnSorted, 0.99))} s, max ${seconds(spawnSorted.at(-1)!)} s`,
  );
  console.log(
    `resume from kill: p50 ${seconds(percentile(killSorted, 0.5))} s, p99 ${seconds(percentile(killSorted, 0.99))} s`,
  );
  console.log(
    `process start (spawn to "started"): p50 ${seconds(percentile(startSorted, 0.5))} s, max ${seconds(startSorted.at(-1)!)} s`,
  );
  console.log(
    `effects: ${[...effects.values()].reduce((a, b) => a + b, 0)} over ${effects.size} idempotency keys, ${duplicates} duplicates; ` +
      `${ended} of ${logs.turns.size} turns ended; total ${seconds(Date.now() - began)} s`,
  );
  rmSync(dir, { recursive: true, force: true });
  const resumeP99 = stalled > 0 ? null : seconds(percentile(spawnSorted, 0.99));
  console.log(
    JSON.stringify({
      kills,
      resume_p50_s: seconds(percentile(spawnSorted, 0.5)),
      resume_p99_s: resumeP99,
      duplicate_effects: duplicates,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
