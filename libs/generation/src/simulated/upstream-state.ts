import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import type { MediaKind, UpstreamStatus } from '../provider';

/** One job as the simulated upstream keeps it (and writes it to its state file). */
export interface SimulatedJobRecord {
  id: string;
  idempotencyKey: string;
  /** Canonical hash of the request: the same key with another request is refused. */
  fingerprint: string;
  kind: MediaKind;
  operation: string;
  prompt: string;
  options: Record<string, unknown>;
  referenceCount: number;
  units: number;
  unit: string;
  amountMinor: number;
  currency: string;
  callbackUrl?: string;
  createdAtMs: number;
  updatedAtMs: number;
  /** Latency, ticks and outcome are fixed at creation: a config change never rewrites a job. */
  latencyMs: number;
  ticks: number;
  willFail: boolean;
  status: UpstreamStatus;
  progress: number;
  emittedTicks: number;
  /** Progress callbacks held back by outOfOrderProgress until the terminal one is sent. */
  held: SimulatedCallbackBody[];
  failure?: { code: string; message: string };
}

/** The JSON body of a callback; its bytes are what the signature covers. */
export interface SimulatedCallbackBody {
  eventId: string;
  type: 'job.progress' | 'job.completed' | 'job.failed' | 'job.cancelled';
  jobId: string;
  status: UpstreamStatus;
  progress: number;
  /** Per job, increasing: ticks 1..n, the terminal n+1. Receivers order by it. */
  sequence: number;
  occurredAt: string;
  failure?: { code: string; message: string };
  result?: { contentType: string; url: string };
}

export interface SimulatedUpstreamCounters {
  /** Every POST /v1/jobs that reached the upstream, failed by a fault or not. */
  submitRequests: number;
  /** Submits answered with an existing job (same idempotency key). */
  idempotentReplays: number;
  pollRequests: number;
  cancelRequests: number;
  downloadRequests: number;
  /** Callback events produced (one per tick or terminal state). */
  callbacksEmitted: number;
  /** HTTP deliveries handed to the transport (a duplicate counts twice). */
  callbacksSent: number;
  /** Events dropped by lostCallbacks, or with no callback URL or secret configured. */
  callbacksLost: number;
}

export interface SimulatedUpstreamState {
  version: 1;
  jobs: SimulatedJobRecord[];
  counters: SimulatedUpstreamCounters;
}

export const emptySimulatedCounters = (): SimulatedUpstreamCounters => ({
  submitRequests: 0,
  idempotentReplays: 0,
  pollRequests: 0,
  cancelRequests: 0,
  downloadRequests: 0,
  callbacksEmitted: 0,
  callbacksSent: 0,
  callbacksLost: 0,
});

/** Where the upstream keeps its state; the in-process mode keeps it in memory. */
export interface SimulatedUpstreamStateStore {
  load(): SimulatedUpstreamState | undefined;
  save(state: SimulatedUpstreamState): void;
}

export class MemorySimulatedStateStore implements SimulatedUpstreamStateStore {
  private saved?: string;

  load(): SimulatedUpstreamState | undefined {
    return this.saved === undefined ? undefined : (JSON.parse(this.saved) as SimulatedUpstreamState);
  }

  save(state: SimulatedUpstreamState): void {
    this.saved = JSON.stringify(state);
  }
}

/**
 * A JSON file replaced atomically: the new state goes to a temp file in the same directory,
 * is fsynced, then renamed over the old one, so a crash leaves the old or the new file, never a
 * torn one. Synchronous on purpose: a submit is answered only once its job is on disk.
 */
export class JsonFileSimulatedStateStore implements SimulatedUpstreamStateStore {
  private writes = 0;

  constructor(readonly file: string) {}

  load(): SimulatedUpstreamState | undefined {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const state = JSON.parse(text) as SimulatedUpstreamState;
    if (state.version !== 1) throw new Error(`${this.file}: unknown simulated upstream state version ${state.version}`);
    return state;
  }

  save(state: SimulatedUpstreamState): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.${++this.writes}.tmp`;
    const fd = openSync(temp, 'w');
    try {
      writeSync(fd, JSON.stringify(state));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file);
  }
}
