import type { BlobStore } from '@lomo/blobs';
import { PATCH_CONTENT_TYPE, replayPatch, sha256Hex, type TextReadPlan } from '../artifact';
import { TextCache } from './text-cache';

/** 32 M characters (~64 MB of UTF-16): a few thousand 20 KB documents at their latest versions. */
export const DEFAULT_TEXT_CACHE_CHARS = 32 * 1024 * 1024;

/**
 * Document text in the BlobStore (libs/workspace/README.md): full snapshots at creation, rewrite,
 * restore and every few edits; snippet edits store only their patch. Reading a version takes the
 * last snapshot at or before it and replays the patches after it, with texts cached by hash.
 */
export class DocumentTextStore {
  private readonly cache: TextCache;

  constructor(
    readonly blobs: BlobStore,
    options: { cacheChars?: number } = {},
  ) {
    this.cache = new TextCache(options.cacheChars ?? DEFAULT_TEXT_CACHE_CHARS);
  }

  /**
   * A text the writer just produced (its hash is in the event), so the next edit needs no read.
   * `replacing` is the version it follows, dropped: a document edited thousands of times would
   * otherwise fill the cache with versions nobody asked for, pushing other documents' latest texts
   * out and keeping tens of MB of strings alive for the GC to copy. A version that is read again
   * comes back from its snapshot and patches (and is cached then).
   */
  remember(hash: string, text: string, replacing?: string): void {
    if (replacing !== undefined && replacing !== hash) this.cache.delete(replacing);
    this.cache.set(hash, text);
  }

  async writeSnapshot(text: string, contentType: string): Promise<string> {
    const ref = await this.blobs.put(text, contentType);
    return ref.hash;
  }

  async writePatch(patch: string): Promise<string> {
    return (await this.blobs.put(patch, PATCH_CONTENT_TYPE)).hash;
  }

  /** The text of a version, or undefined when a blob it needs is gone (forgotten). */
  async read(plan: TextReadPlan): Promise<string | undefined> {
    const cached = this.cache.get(plan.hash);
    if (cached !== undefined) return cached;
    let text = this.cache.get(plan.snapshot.hash) ?? (await this.blobs.get(plan.snapshot.hash))?.toString('utf8');
    if (text === undefined) return undefined;
    this.cache.set(plan.snapshot.hash, text);
    for (const step of plan.patches) {
      const patch = await this.blobs.get(step.patch.hash);
      if (patch === undefined) return undefined;
      text = replayPatch(text, patch.toString('utf8'));
    }
    // Replaying must land on the recorded text, or the log and the blobs disagree: never hand that out.
    if (plan.patches.length > 0 && sha256Hex(text) !== plan.hash)
      throw new Error(`Replaying the patches of version ${plan.version} does not give the recorded text ${plan.hash}`);
    this.cache.set(plan.hash, text);
    return text;
  }

  get cacheStats(): { texts: number; chars: number } {
    return { texts: this.cache.count, chars: this.cache.chars };
  }
}
