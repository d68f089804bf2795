import Database from 'better-sqlite3';
import type { AppProcess } from './cluster';
import type { Drill } from './drill';
import { callsInFlight, turnFacts } from './store-facts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Holding the write lock stays under the tools database's 5 s busy timeout, so a call that is
 * not the victim's waits and then succeeds rather than failing with SQLITE_BUSY.
 */
const HOLD_MS = 3_000;
const GAP_MS = 300;

/**
 * SIGKILLs the first of `candidates` seen inside a notes.create call: its ToolCallStarted is in
 * the store (under its own lease) and the tool has not returned. Any candidate will do: which
 * executor gets a task's wake-ups depends on the partition its key hashes to and on when the
 * group last rebalanced, so a fixed victim may never get a call (4 tasks all landing on the
 * other executor's partitions happened here).
 *
 * A real tool call takes a millisecond, far too short to be seen from outside and hit. So the
 * drill holds the write lock of the tools database all executors share (a plain SQLite
 * transaction, no hook in the apps): notes.create waits on it after ToolCallStarted was
 * appended. Once the store shows such a call under the victim's lease, the victim is killed
 * and the lock released; the other executors' waiting calls then go through.
 */
export async function killInsideToolCall(
  drill: Drill,
  candidates: readonly AppProcess[],
  timeoutMs: number,
): Promise<{ victim: AppProcess; turnId: string; callId: string }> {
  const lock = new Database(drill.toolsPath, { timeout: 5_000 });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      lock.exec('BEGIN IMMEDIATE');
      const heldUntil = Date.now() + HOLD_MS;
      try {
        while (Date.now() < heldUntil) {
          const facts = turnFacts(await drill.events());
          for (const victim of candidates) {
            const caught = callsInFlight(facts, victim.name).find((c) => c.tool === 'notes.create');
            if (caught === undefined) continue;
            victim.signal('SIGKILL');
            await victim.exited;
            return { victim, turnId: caught.turnId, callId: caught.callId };
          }
          await sleep(25);
        }
      } finally {
        lock.exec('ROLLBACK');
      }
      await sleep(GAP_MS);
    }
    const names = candidates.map((c) => c.name).join(', ');
    throw new Error(`none of ${names} started a notes.create call within ${timeoutMs} ms\n${drill.diagnostics()}`);
  } finally {
    lock.close();
  }
}
