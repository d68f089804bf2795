/** One task the runtime may still have to act on (removed once stopped, completed or archived). */
export interface TaskWork {
  taskId: string;
  workspaceId: string;
  status: 'active' | 'waiting' | 'paused';
  unclaimed: Set<string>;
  /** Standing claims of steps not (yet) committed, keyed `turnId#step`. */
  claims: Map<string, { turnId: string; step: number }>;
  activeTurnId: string | null;
  /** When the active turn was opened (epoch ms), for turns whose TurnStarted never came. */
  activeSinceMs: number;
  resolvedCheckpoints: Set<string>;
  /** When the runtime decided to go on by itself (ContinuationDecided: continue), until a turn opens. */
  continuationSinceMs: number | null;
}

export type TurnWorkStatus = 'queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';

/** One turn that is open, or ended but not yet closed on its task (removed once it is). */
export interface TurnWork {
  turnId: string;
  taskId: string;
  status: TurnWorkStatus;
  /** When the status last changed (epoch ms of the event). */
  sinceMs: number;
  leaseUntilMs: number | null;
  /** The worker named by the current lease, so a restarted executor finds the turns it held. */
  leaseHolder: string | null;
  committedSteps: number;
  waitingOn:
    | { kind: 'calls'; callIds: readonly string[] }
    | { kind: 'checkpoint'; checkpointId: string }
    | { kind: 'jobs' }
    | null;
  /** Calls with a result or an unknown outcome, while the turn is indexed. */
  settledCalls: Set<string>;
}

export type FindingKind =
  | 'lease-expired'
  | 'queued-too-long'
  | 'wait-satisfied'
  | 'unclosed-turn'
  | 'unreleased-claims'
  | 'unclaimed-inbox'
  | 'pending-continuation';

export interface Finding {
  kind: FindingKind;
  taskId: string;
  workspaceId: string;
  turnId?: string;
}
