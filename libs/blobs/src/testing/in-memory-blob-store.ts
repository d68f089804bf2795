import { createHash } from 'node:crypto';
import type { BlobRef, BlobStore } from '../blob-store.port';

/**
 * Blobs in process memory, content-addressed like the real adapters: for unit tests and benches
 * that measure something else than a disk. `puts` lists each put's content type, in order.
 */
export class InMemoryBlobStore implements BlobStore {
  readonly puts: string[] = [];
  private readonly blobs = new Map<string, Buffer>();

  async put(content: Buffer | string, contentType: string): Promise<BlobRef> {
    const bytes = Buffer.from(content);
    const hash = createHash('sha256').update(bytes).digest('hex');
    this.blobs.set(hash, bytes);
    this.puts.push(contentType);
    return { hash, bytes: bytes.length, contentType };
  }

  async get(hash: string): Promise<Buffer | undefined> {
    return this.blobs.get(hash);
  }

  async has(hash: string): Promise<boolean> {
    return this.blobs.has(hash);
  }

  async delete(hash: string): Promise<boolean> {
    return this.blobs.delete(hash);
  }
}
