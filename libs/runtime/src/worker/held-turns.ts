import type { TurnSession } from './turn-session';

/**
 * The turns this process holds a lease on. A cancel message names a turn; only the process that
 * holds it finds it here, which is why every executor receives every cancel (see WakeUpConsumer).
 */
export class HeldTurns {
  private readonly sessions = new Map<string, TurnSession>();

  add(session: TurnSession): void {
    this.sessions.set(session.turnId, session);
  }

  remove(session: TurnSession): void {
    if (this.sessions.get(session.turnId) === session) this.sessions.delete(session.turnId);
  }

  /** True when this process held the turn and aborted its work. */
  cancel(turnId: string, reason: string): boolean {
    const session = this.sessions.get(turnId);
    if (session === undefined) return false;
    session.abort(reason);
    return true;
  }

  /** SIGTERM: stop at the next boundary and release; the model call in flight is abandoned. */
  shutDownAll(): void {
    for (const session of this.sessions.values()) {
      session.shuttingDown = true;
      session.modelCall?.abort(new Error('shutdown'));
    }
  }

  get size(): number {
    return this.sessions.size;
  }
}
