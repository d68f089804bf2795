import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ValidationError } from '@lomo/contracts';
import type { BlobRef, BlobStore } from './blob-store.port';

const hashPattern = /^[0-9a-f]{64}$/;

/**
 * Blobs as files named by their hash under two levels of fan-out. Writes go to a temporary
 * file that is fsynced and renamed, so a crash never leaves a half-written blob at its address.
 */
export class FilesystemBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async put(content: Buffer | string, contentType: string): Promise<BlobRef> {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const hash = createHash('sha256').update(bytes).digest('hex');
    const file = this.fileOf(hash);
    const ref = { hash, bytes: bytes.length, contentType };
    if (await exists(file)) return ref;
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    const handle = await fs.open(tmp, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
    return ref;
  }

  async get(hash: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.fileOf(hash));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  // async so a malformed hash rejects like the other methods instead of throwing at the call.
  async has(hash: string): Promise<boolean> {
    return exists(this.fileOf(hash));
  }

  async delete(hash: string): Promise<boolean> {
    try {
      await fs.unlink(this.fileOf(hash));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }

  private fileOf(hash: string): string {
    if (!hashPattern.test(hash))
      throw new ValidationError('blob hash must be 64 hex characters', [
        { path: 'hash', message: 'not a sha256 hex digest' },
      ]);
    return path.join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );
