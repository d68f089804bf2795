import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

const TURNS_PER_TASK = 100;

/**
 * Writes the history of `turns` finished turns (tasks of 100 turns each, every task completed)
 * straight into an event-store file, in one transaction: the rows the SQLite store itself would
 * have written, so the store reads them back as usual. Going around the port only saves time:
 * 100 000 turns through `append` take long enough to crowd a shared machine.
 */
export function seedFinishedTurns(filename: string, turns: number, at: string): void {
  const db = new Database(filename, { timeout: 10_000 });
  try {
    const insert = db.prepare(
      'INSERT INTO events (stream_id, revision, event_id, type, schema_version, data, metadata, occurred_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
    );
    const metadata = JSON.stringify({
      correlationId: 'seed',
      causationId: null,
      workspaceId: 'ws_history',
      actor: { kind: 'system', component: 'executor' },
    });
    const stream = (streamId: string, events: Array<[string, unknown]>) =>
      events.forEach(([type, data], revision) =>
        insert.run(streamId, revision, randomUUID(), type, JSON.stringify(data), metadata, at),
      );
    db.transaction(() => {
      for (let done = 0; done < turns; done += TURNS_PER_TASK) {
        const taskId = randomUUID();
        const taskEvents: Array<[string, unknown]> = [
          [
            'TaskCreated',
            { taskId, kind: 'persistent', goal: 'old work', language: 'en', originMessageId: randomUUID() },
          ],
        ];
        for (let i = 0; i < Math.min(TURNS_PER_TASK, turns - done); i += 1) {
          const turnId = randomUUID();
          taskEvents.push(
            ['TurnOpened', { turnId, reason: 'message' }],
            ['TurnClosed', { turnId, outcome: 'completed' }],
          );
          stream(`turn-${turnId}`, [
            ['TurnStarted', { turnId, taskId, reason: 'message' }],
            ['TurnLeased', { workerId: 'old-worker', generation: 1, leaseUntil: at }],
            ['TurnCompleted', { steps: 1 }],
          ]);
        }
        taskEvents.push(['TaskCompleted', {}]);
        stream(`task-${taskId}`, taskEvents);
      }
    }).immediate();
  } finally {
    db.close();
  }
}
