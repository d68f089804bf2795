import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SqliteEventStore } from '@lomo/eventstore';
import type { DrillTarget } from './drill-app';
import type { DrillClient } from './drill-client';

/**
 * Fault runs (issue 21: "with fault switches on the same metrics hold"). A preset sets the app's
 * test-control switches and, for the crash presets, lets the harness SIGKILL the standalone app
 * at a moment it sees on the event feed (never after a fixed sleep) and start it again on the
 * same data directory while the scripted person goes on.
 */
export const FAULT_PRESETS = ['callbacks', 'wakeups', 'kill-mid-step', 'generation-restart'] as const;
export type FaultPreset = (typeof FAULT_PRESETS)[number];

/** Silence before a job is polled in a fault run (the config's minimum is 100 ms; the default 30 s). */
export const FAULT_SILENCE_MS = 2_000;
/** At most this many kills per scenario. */
export const MAX_KILLS = 2;

export function isFaultPreset(name: string): name is FaultPreset {
  return (FAULT_PRESETS as readonly string[]).includes(name);
}

/** The app environment of the presets together. */
export function faultEnv(presets: readonly FaultPreset[]): Record<string, string> {
  if (presets.length === 0) return {};
  const faults = new Set<string>();
  for (const p of presets) {
    if (p === 'callbacks') faults.add('duplicate_callbacks');
    if (p === 'wakeups') faults.add('lost_wakeups');
    // Polling is the only way a job completes: the kill lands between submission and the poll.
    if (p === 'generation-restart') faults.add('lost_callbacks');
  }
  return {
    LOMO_TEST_CONTROL: 'on',
    ...(faults.size > 0 ? { LOMO_TEST_FAULTS: [...faults].join(',') } : {}),
    ...(presets.includes('callbacks') || presets.includes('generation-restart')
      ? { LOMO_GENERATION_SILENCE_MS: String(FAULT_SILENCE_MS) }
      : {}),
  };
}

/** One SIGKILL by the harness, with what the feed showed when it decided. */
export interface FaultKill {
  preset: 'kill-mid-step' | 'generation-restart';
  /** The feed event that triggered it and its stream. */
  seen: string;
  streamId: string;
  /** Index of that event in the person's feed. */
  feedIndex: number;
  /** Milliseconds since the drill started. */
  atMs: number;
  /** Kill to the app answering again. */
  downMs: number;
  /**
   * The feed already showed the step committed (or the job finished) when the signal went: the
   * person's feed lags the process by a few milliseconds and the offline model's steps are quick.
   */
  finishedOnFeedAtKill: boolean;
}

/**
 * Watches the person's feed and applies the presets' run-time faults:
 * - `callbacks`: duplicate callbacks from the start; each job event seen (progress, completion)
 *   flips `lostCallbacks` through `POST /test-control/faults`, so a job's callbacks alternate
 *   between sent twice and lost (then recovered by the poll after the short silence);
 * - `kill-mid-step`: a turn leased (a model step starting) with no step committed on the feed yet
 *   → SIGKILL, restart on the same data directory; the 1st and 3rd such lease;
 * - `generation-restart`: a job submitted upstream and not finished on the feed → SIGKILL,
 *   restart (with lost callbacks the restarted process's poll is the only way it completes); the
 *   first two jobs. On a target with `restartGeneration` (the distributed apps) only the
 *   generation app is killed; on the standalone app the whole process is.
 */
export class FaultDriver {
  readonly kills: FaultKill[] = [];
  /** `POST /test-control/faults` calls that flipped lost callbacks, and their failures. */
  lostCallbackFlips = 0;
  readonly errors: string[] = [];
  private busy: Promise<void> = Promise.resolve();
  private restarting = false;
  private leases = 0;
  private readonly submitted: string[] = [];
  private lost = false;
  private readonly started = Date.now();

  constructor(
    private readonly presets: readonly FaultPreset[],
    private readonly app: DrillTarget,
    private readonly client: DrillClient,
    private readonly operatorToken: string,
  ) {}

  attach(): void {
    if (this.presets.length === 0) return;
    this.client.feedListeners.add((event, index) => this.onEvent(event, index));
  }

  /** Waits for a kill or flip in progress (before the drill stops the app). */
  async settle(): Promise<void> {
    await this.busy;
  }

  private enqueue(work: () => Promise<void>): void {
    this.busy = this.busy.then(work).catch((error: unknown) => {
      this.errors.push(error instanceof Error ? error.message : String(error));
    });
  }

  private onEvent(event: { type: string; streamId: string }, index: number): void {
    if (this.restarting) return;
    if (
      this.presets.includes('callbacks') &&
      (event.type === 'GenerationProgressed' || event.type === 'GenerationCompleted')
    ) {
      this.lost = !this.lost;
      const lostCallbacks = this.lost;
      this.enqueue(() => this.setFaults({ lostCallbacks }));
    }
    if (this.kills.length >= MAX_KILLS) return;
    if (this.presets.includes('kill-mid-step') && event.type === 'TurnLeased') {
      this.leases += 1;
      // The 1st and 3rd lease: a first turn and one a little later in the story.
      if (this.leases === 1 || this.leases === 3) this.kill('kill-mid-step', event, index);
      return;
    }
    if (this.presets.includes('generation-restart') && event.type === 'GenerationSubmitted') {
      if (this.submitted.includes(event.streamId)) return;
      this.submitted.push(event.streamId);
      if (this.submitted.length <= MAX_KILLS) this.kill('generation-restart', event, index);
    }
  }

  /** Decided on the event: the kill goes out now, with the person's requests held until the app is back. */
  private kill(preset: FaultKill['preset'], event: { type: string; streamId: string }, index: number): void {
    // Still what the feed shows when the signal goes: the step (or the job) is not finished.
    const finished =
      preset === 'kill-mid-step'
        ? ['ModelStepCommitted', 'TurnCompleted', 'TurnFailed', 'TurnCancelled']
        : ['GenerationCompleted', 'GenerationFailed'];
    if (this.client.feed.slice(index + 1).some((e) => e.streamId === event.streamId && finished.includes(e.type)))
      return;
    this.restarting = true;
    const atMs = Date.now() - this.started;
    this.enqueue(async () => {
      const down = Date.now();
      let finishedOnFeedAtKill = false;
      const onlyGeneration = preset === 'generation-restart' ? this.app.restartGeneration?.bind(this.app) : undefined;
      try {
        if (onlyGeneration !== undefined) {
          // The distributed apps: only the generation process dies; the API (the person's
          // requests, the feed) stays up, so nothing is held. The app decides the moment of the
          // kill (after a poll) and keeps what the upstream had seen by then.
          finishedOnFeedAtKill = this.client.feed
            .slice(index + 1)
            .some((e) => e.streamId === event.streamId && finished.includes(e.type));
          await onlyGeneration();
        } else
          await this.client.duringOutage(
            async () => {
              finishedOnFeedAtKill = this.client.feed
                .slice(index + 1)
                .some((e) => e.streamId === event.streamId && finished.includes(e.type));
              await this.app.restart('kill');
            },
            () => this.app.url,
          );
        this.kills.push({
          preset,
          seen: event.type,
          streamId: event.streamId,
          feedIndex: index,
          atMs,
          downMs: Date.now() - down,
          finishedOnFeedAtKill,
        });
      } finally {
        this.restarting = false;
      }
      // The upstream keeps no faults across its own restart; the app forwards its start switches
      // again, and the run-time flip of lost callbacks is re-applied here.
      if (this.presets.includes('callbacks')) await this.setFaults({ lostCallbacks: this.lost });
    });
  }

  private async setFaults(body: { lostCallbacks: boolean }): Promise<void> {
    if (!this.app.running) return;
    const response = await fetch(`${this.app.url}/test-control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.operatorToken}` },
      body: JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(
        `POST /test-control/faults answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
      );
    this.lostCallbackFlips += 1;
  }
}

/** What the log and the simulated upstream show happened: a fault run passes only when its fault did. */
export interface FaultEvidence {
  /** The simulated upstream's counters (sim-upstream/state.json in the data directory). */
  upstream: { callbacksEmitted: number; callbacksSent: number; callbacksLost: number; pollRequests: number } | null;
  /** Callbacks the upstream sent a second time (sent − (emitted − lost)). */
  duplicateCallbacksSent: number;
  /** Job progress recorded from a poll rather than a callback. */
  polledProgress: number;
  /** Turns the watchdog opened (a lost wake-up recovered). */
  watchdogTurns: number;
  /** Of the killed streams (turns, jobs): how many finished after the restart (a turn completed, a job completed). */
  killedFinished: number;
  /** Progress recorded on the killed jobs' streams, by how it came (callback or poll). */
  killedJobProgress: { callback: number; poll: number };
}

export async function faultEvidence(
  dataDir: string,
  workspaceId: string,
  kills: readonly FaultKill[],
): Promise<FaultEvidence> {
  const stateFile = path.join(dataDir, 'sim-upstream', 'state.json');
  let upstream: FaultEvidence['upstream'] = null;
  if (existsSync(stateFile)) {
    const counters = (JSON.parse(readFileSync(stateFile, 'utf8')) as { counters?: Record<string, number> }).counters;
    if (counters !== undefined)
      upstream = {
        callbacksEmitted: counters.callbacksEmitted ?? 0,
        callbacksSent: counters.callbacksSent ?? 0,
        callbacksLost: counters.callbacksLost ?? 0,
        pollRequests: counters.pollRequests ?? 0,
      };
  }
  const store = new SqliteEventStore({ filename: path.join(dataDir, 'events.sqlite') });
  let polledProgress = 0;
  let watchdogTurns = 0;
  const finished = new Set<string>();
  const killedStreams = new Set(kills.map((k) => k.streamId));
  const killedJobProgress = { callback: 0, poll: 0 };
  try {
    for (let from: string | undefined; ;) {
      const page = await store.readAll({ ...(from !== undefined ? { fromPosition: from } : {}), maxCount: 1_000 });
      for (const e of page) {
        if (e.metadata.workspaceId !== workspaceId) continue;
        const data = e.data as Record<string, unknown>;
        if (e.type === 'GenerationProgressed' && data.source === 'poll') polledProgress += 1;
        if (e.type === 'GenerationProgressed' && killedStreams.has(e.metadata.streamId))
          killedJobProgress[data.source === 'poll' ? 'poll' : 'callback'] += 1;
        if (e.type === 'TurnStarted' && data.reason === 'watchdog') watchdogTurns += 1;
        if (e.type === 'TurnCompleted' || e.type === 'GenerationCompleted') finished.add(e.metadata.streamId);
      }
      if (page.length < 1_000) break;
      from = page[page.length - 1].metadata.globalPosition;
    }
  } finally {
    await store.close();
  }
  return {
    upstream,
    duplicateCallbacksSent:
      upstream === null ? 0 : upstream.callbacksSent - (upstream.callbacksEmitted - upstream.callbacksLost),
    polledProgress,
    watchdogTurns,
    killedFinished: kills.filter((k) => finished.has(k.streamId)).length,
    killedJobProgress,
  };
}
