import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { InProcessEventBus, type ConsumerHandle, type ReceivedMessage } from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { spawnTs, type TsProcess } from './fixtures/spawn-ts';

const CHILD = path.join(__dirname, 'fixtures/group-member.child.ts');
const PARTITIONS = 4;

interface Handled {
  key: string;
  seq: number;
  partition: number;
}

const handledBy = (child: TsProcess): Handled[] =>
  child.messages.filter((m) => m.handled).map((m) => m.handled as Handled);
const lastAssignment = (child: TsProcess): number[] =>
  (child.messages.filter((m) => m.assignment).at(-1)?.assignment as number[] | undefined) ?? [];

/**
 * Two processes share a consumer group through the bus file alone (no in-process wake-ups
 * between them): they split the partitions, and when one is killed the other takes its
 * partitions after the session timeout and carries on from the committed offsets.
 */
describe('in-process bus shared by two processes', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'lomo-bus-procs-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('splits a group across processes and hands a killed member’s partitions to the survivor', async () => {
    const busFile = path.join(dir, 'bus.sqlite');
    const bus = InProcessEventBus.open({
      filename: busFile,
      pollIntervalMs: 25,
      heartbeatIntervalMs: 100,
      sessionTimeoutMs: 1_000,
    });
    const other = spawnTs(CHILD, [busFile, 'jobs', 'workers']);
    try {
      await bus.ensureTopics([{ name: 'jobs', partitions: PARTITIONS }]);
      const mine: ReceivedMessage[] = [];
      const handle: ConsumerHandle = await bus.subscribe({
        groupId: 'workers',
        topics: ['jobs'],
        maxAttempts: 3,
        backoff: { initialDelayMs: 1, maxDelayMs: 5 },
        fromBeginning: true,
        handler: async (m) => void mine.push(m),
      });
      await waitFor(
        () =>
          handle.assignment().length > 0 &&
          lastAssignment(other).length > 0 &&
          handle.assignment().length + lastAssignment(other).length === PARTITIONS,
        'the partitions split between the processes',
        20_000,
      );

      const publish = (from: number, to: number) =>
        bus.publish(
          'jobs',
          Array.from({ length: (to - from) * 12 }, (_, i) => ({
            key: `k${i % 12}`,
            value: { seq: from + Math.floor(i / 12) },
          })),
        );
      await publish(0, 3);
      await waitFor(() => mine.length + handledBy(other).length === 36, 'all 36 handled once', 20_000);
      expect(mine.length).toBeGreaterThan(0);
      expect(handledBy(other).length).toBeGreaterThan(0);
      const theirs = new Set(handledBy(other).map((h) => h.key));
      expect(mine.some((m) => theirs.has(m.key))).toBe(false);

      other.child.kill('SIGKILL');
      await other.exited;
      await waitFor(() => handle.assignment().length === PARTITIONS, 'the survivor to take every partition', 20_000);
      await publish(3, 5);
      await waitFor(
        () => mine.filter((m) => Number(m.value.seq) >= 3).length === 24,
        'the survivor to handle the rest',
        20_000,
      );
      for (let k = 0; k < 12; k += 1) {
        const seqs = mine.filter((m) => m.key === `k${k}`).map((m) => Number(m.value.seq));
        expect(seqs.slice(-2)).toEqual([3, 4]);
      }
    } finally {
      if (other.child.exitCode === null && other.child.signalCode === null) other.child.kill('SIGKILL');
      await other.exited;
      await bus.close();
    }
  }, 60_000);
});
