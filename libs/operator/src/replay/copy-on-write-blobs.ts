import { createHash } from 'node:crypto';
import type { BlobRef, BlobStore } from '@lomo/blobs';

/**
 * Blobs for a replay: reads fall through to the real store, writes (a segment the replay's
 * assembler writes) stay in memory, and a delete only hides a blob from this copy. The real
 * store is only ever asked `get` and `has`.
 */
export class CopyOnWriteBlobStore implements BlobStore {
  private readonly written = new Map<string, Buffer>();
  private readonly hidden = new Set<string>();

  constructor(private readonly real: Pick<BlobStore, 'get' | 'has'>) {}

  /** Hashes this copy holds that the real store was never asked to write. */
  get writtenHashes(): string[] {
    return [...this.written.keys()];
  }

  async put(content: Buffer | string, contentType: string): Promise<BlobRef> {
    const bytes = Buffer.from(content);
    const hash = createHash('sha256').update(bytes).digest('hex');
    this.written.set(hash, bytes);
    this.hidden.delete(hash);
    return { hash, bytes: bytes.length, contentType };
  }

  async get(hash: string): Promise<Buffer | undefined> {
    if (this.hidden.has(hash)) return undefined;
    return this.written.get(hash) ?? (await this.real.get(hash));
  }

  async has(hash: string): Promise<boolean> {
    if (this.hidden.has(hash)) return false;
    return this.written.has(hash) || (await this.real.has(hash));
  }

  async delete(hash: string): Promise<boolean> {
    const existed = await this.has(hash);
    this.written.delete(hash);
    this.hidden.add(hash);
    return existed;
  }
}
