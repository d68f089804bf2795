/** Where one projection stands, for /health and /metrics. */
export type ProjectionState =
  /** Before start() looked at its alias. */
  | 'starting'
  /** This instance rebuilds it into a fresh collection; readers still use the previous one. */
  | 'rebuilding'
  /** Another instance holds the rebuild lease; this one waits for the switch. */
  | 'waiting'
  | 'live'
  /** The alias points at a newer version than this code knows: this instance leaves it alone. */
  | 'superseded'
  | 'failed';

export interface ProjectionStatus {
  name: string;
  version: number;
  collection: string;
  state: ProjectionState;
  /** Events of its categories after its applied revisions, found by the last sweep. */
  lagEvents: number;
  /** Age of the oldest of those events at the last sweep (0 when none). */
  lagSeconds: number;
  lastSweepAt: string | null;
  /** Events read so far by a rebuild in progress (or the last one). */
  rebuiltEvents: number;
  error: string | null;
}

export interface ProjectorHealth {
  healthy: boolean;
  reasons: string[];
  projections: ProjectionStatus[];
}

export function assessHealth(projections: ProjectionStatus[], maxLagSeconds: number): ProjectorHealth {
  const reasons: string[] = [];
  for (const p of projections) {
    if (p.state === 'failed') reasons.push(`${p.name}: failed (${p.error ?? 'unknown error'})`);
    else if (p.lagSeconds > maxLagSeconds) reasons.push(`${p.name}: ${p.lagSeconds.toFixed(1)} s behind`);
  }
  return { healthy: reasons.length === 0, reasons, projections };
}
