import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DocumentStoreUnavailableError } from '../document-store.errors';
import { sharedWriteLock, WRITE_LOCK_BYTES } from './sqlite-write-lock';

describe('sharedWriteLock', () => {
  it('is taken and given back; a waiter gives up with a typed error after its bound', () => {
    const buffer = new SharedArrayBuffer(WRITE_LOCK_BYTES);
    const lock = sharedWriteLock(buffer, 30);
    lock.acquire();
    const started = Date.now();
    expect(() => sharedWriteLock(buffer, 30).acquire()).toThrow(DocumentStoreUnavailableError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    lock.release();
    sharedWriteLock(buffer, 30).acquire();
  });

  it('keeps another thread out until released, and wakes it then', async () => {
    const buffer = new SharedArrayBuffer(WRITE_LOCK_BYTES);
    const lock = sharedWriteLock(buffer);
    lock.acquire();
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const { sharedWriteLock } = require(workerData.module);
       const lock = sharedWriteLock(workerData.buffer);
       parentPort.postMessage('waiting');
       lock.acquire();
       parentPort.postMessage(Date.now());
       lock.release();`,
      {
        eval: true,
        workerData: { buffer, module: resolve(__dirname, 'sqlite-write-lock.ts') },
        execArgv: ['-r', resolve(__dirname, '../../../../../scripts/register.cjs')],
      },
    );
    const messages: unknown[] = [];
    const acquiredAt = new Promise<number>((done, fail) => {
      worker.on('message', (m: unknown) => {
        messages.push(m);
        if (typeof m === 'number') done(m);
      });
      worker.on('error', fail);
    });
    while (messages.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 100));
    expect(messages).toEqual(['waiting']);
    const releasedAt = Date.now();
    lock.release();
    expect(await acquiredAt).toBeGreaterThanOrEqual(releasedAt);
    await worker.terminate();
  });
});
