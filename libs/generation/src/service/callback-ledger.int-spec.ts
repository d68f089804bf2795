import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteDocumentStore } from '@lomo/read-models';
import { CALLBACK_BATCHES_COLLECTION, CallbackLedger } from './callback-ledger';

// The callback ledger on a real SQLite document store: what one process writes behind, another
// (or the same one restarted) loads; what is older than the replay window is forgotten.

describe('the callback ledger', () => {
  let dir: string;
  let documents: SqliteDocumentStore;
  let now = 1_000_000;
  const windowMs = 60_000;
  const ledger = () => new CallbackLedger(documents, { windowMs, nowMs: () => now, newId: randomUUID });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'callback-ledger-'));
    documents = new SqliteDocumentStore({ filename: join(dir, 'read.sqlite') });
    now = 1_000_000;
  });
  afterEach(async () => {
    await documents.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a processed delivery is a replay in this process at once, in another after its flush and refresh', async () => {
    const a = ledger();
    const b = ledger();
    await b.refresh();
    expect(a.claim('sim', 'e1')).toBe(true);
    expect(a.claim('sim', 'e1')).toBe(false); // a concurrent duplicate
    a.release('sim', 'e1', true);
    expect(a.seenBefore('sim', 'e1')).toBe(true);
    expect(b.seenBefore('sim', 'e1')).toBe(false);

    await a.flush();
    now += 1_000;
    await b.refresh();
    expect(b.seenBefore('sim', 'e1')).toBe(true);
    expect(b.claim('sim', 'e1')).toBe(false);
    expect(b.seenBefore('other', 'e1')).toBe(false);
  });

  it('a delivery whose processing failed is not recorded, so the provider’s retry is processed', async () => {
    const a = ledger();
    expect(a.claim('sim', 'e2')).toBe(true);
    a.release('sim', 'e2', false);
    expect(a.seenBefore('sim', 'e2')).toBe(false);
    expect(a.claim('sim', 'e2')).toBe(true);
  });

  it('a restarted process loads the window’s deliveries; older ones are forgotten, in memory and in the store', async () => {
    const a = ledger();
    a.record('sim', 'old');
    await a.flush();
    now += windowMs / 2;
    a.record('sim', 'recent');
    await a.flush();
    expect(await documents.count(CALLBACK_BATCHES_COLLECTION)).toBe(2);

    now += windowMs / 2 + 1;
    const restarted = ledger();
    await restarted.refresh();
    expect(restarted.seenBefore('sim', 'recent')).toBe(true);
    expect(restarted.seenBefore('sim', 'old')).toBe(false);
    expect(await documents.count(CALLBACK_BATCHES_COLLECTION)).toBe(1);

    await a.refresh();
    expect(a.seenBefore('sim', 'old')).toBe(false);
    expect(a.seenBefore('sim', 'recent')).toBe(true);
  });

  it('a batch that failed to be written is kept and written by the next flush', async () => {
    const a = ledger();
    a.record('sim', 'e3');
    const upsert = jest.spyOn(documents, 'upsert').mockRejectedValueOnce(new Error('disk full'));
    await expect(a.flush()).rejects.toThrow('disk full');
    upsert.mockRestore();
    await a.flush();
    const b = ledger();
    await b.refresh();
    expect(b.seenBefore('sim', 'e3')).toBe(true);
  });

  it('loads every page of a busy window', async () => {
    const a = new CallbackLedger(documents, { windowMs, nowMs: () => now, newId: randomUUID, batchSize: 2 });
    for (let i = 0; i < 900; i += 1) a.record('sim', `busy-${i}`);
    await a.flush();
    now += 10;
    const b = ledger();
    await b.refresh();
    const missing = Array.from({ length: 900 }, (_, i) => `busy-${i}`).filter((id) => !b.seenBefore('sim', id));
    expect(missing).toEqual([]);
  });
});
