import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PersistedWorkerId, WorkerIdInUseError } from '@lomo/runtime';
import { FakeClock } from '@lomo/testing';
import { spawnTsChild } from '../eventstore/fixtures/ts-child';

const CHILD = join(__dirname, 'fixtures/hold-worker-id.child.ts');

describe('the persisted worker id of an embedded data directory', () => {
  let dir: string;
  let filename: string;
  let n = 0;
  const options = () => ({
    filename,
    ids: { uuid: () => `00000000-0000-4000-8000-00000000000${(n += 1)}` },
    clock: new FakeClock('2026-11-30T00:00:00.000Z'),
    waitMs: 50,
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lomo-identity-'));
    filename = join(dir, 'data', 'executor-identity.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once and the same after a restart', () => {
    const first = PersistedWorkerId.acquire(options());
    expect(first.workerId).toBe('executor-00000000-0000-4000-8000-000000000001');
    first.close();
    const again = PersistedWorkerId.acquire(options());
    expect(again.workerId).toBe(first.workerId);
    again.close();
  });

  it('refuses a second holder while the first lives, with a typed error, and leaves the id unchanged', () => {
    const first = PersistedWorkerId.acquire(options());
    expect(() => PersistedWorkerId.acquire(options())).toThrow(WorkerIdInUseError);
    expect(() => PersistedWorkerId.acquire(options())).toThrow(
      expect.objectContaining({ code: 'WORKER_ID_IN_USE', details: { filename } }),
    );
    first.close();
    const next = PersistedWorkerId.acquire(options());
    expect(next.workerId).toBe(first.workerId);
    next.close();
  });

  it('is free again once its holder is killed with SIGKILL, and keeps its id', async () => {
    const holder = spawnTsChild(CHILD, [filename]);
    let held: string;
    try {
      const line = await holder.waitForLine((l) => l.includes('"holding"'), 20_000);
      held = (JSON.parse(line) as { holding: string }).holding;
      expect(() => PersistedWorkerId.acquire(options())).toThrow(WorkerIdInUseError);
    } finally {
      holder.process.kill('SIGKILL');
    }
    expect((await holder.exited).signal).toBe('SIGKILL');
    const after = PersistedWorkerId.acquire(options());
    expect(after.workerId).toBe(held);
    after.close();
  });
});
