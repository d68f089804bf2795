import type { StreamRevision } from './consistency-token';

export const CONSISTENCY_GATE = Symbol('CONSISTENCY_GATE');

/**
 * "Have the read models applied these (stream, revision) pairs?" Resolves when they have; throws
 * a typed CONSISTENCY_TIMEOUT after its bound, or INVALID_CONSISTENCY_TOKEN when a pair names a
 * stream of another workspace.
 */
export interface ConsistencyGate {
  waitFor(pairs: readonly StreamRevision[], workspaceId: string): Promise<void>;
}

/** What the gate needs from the read-models library's ReadModelConsistency. */
export interface ConsistencyCheck {
  waitFor(
    token: readonly StreamRevision[],
    options: { timeoutMs: number; pollMs?: number; workspaceId?: string },
  ): Promise<void>;
}

export class ReadModelConsistencyGate implements ConsistencyGate {
  constructor(
    private readonly check: ConsistencyCheck,
    private readonly timeoutMs: number,
  ) {}

  waitFor(pairs: readonly StreamRevision[], workspaceId: string): Promise<void> {
    return this.check.waitFor(pairs, { timeoutMs: this.timeoutMs, pollMs: 10, workspaceId });
  }
}
