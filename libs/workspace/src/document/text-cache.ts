/**
 * Texts by hash, least recently used out first, bounded by their total length. A text's hash
 * names it for good (content addressing), so entries never go stale.
 */
export class TextCache {
  private readonly entries = new Map<string, string>();
  private size = 0;

  constructor(private readonly maxChars: number) {}

  get(hash: string): string | undefined {
    const text = this.entries.get(hash);
    if (text === undefined) return undefined;
    // Re-inserting moves it to the young end of the Map's insertion order.
    this.entries.delete(hash);
    this.entries.set(hash, text);
    return text;
  }

  set(hash: string, text: string): void {
    if (text.length > this.maxChars) return;
    const before = this.entries.get(hash);
    if (before !== undefined) {
      this.entries.delete(hash);
      this.size -= before.length;
    }
    this.entries.set(hash, text);
    this.size += text.length;
    for (const [oldest, value] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(oldest);
      this.size -= value.length;
    }
  }

  delete(hash: string): void {
    const text = this.entries.get(hash);
    if (text === undefined) return;
    this.entries.delete(hash);
    this.size -= text.length;
  }

  get chars(): number {
    return this.size;
  }

  get count(): number {
    return this.entries.size;
  }
}
