/**
 * Token counts of long texts, keyed by the exact text. The stable layers of a prompt (system
 * rules, serialized tool definitions, the profile snapshot) are counted again at every step; a
 * BPE pass over 20 kB costs about 2 ms, a lookup a few microseconds. Short texts are not kept:
 * counting them is as cheap as looking them up, and they would evict the long ones.
 *
 * Bounded by entries and by the characters held, least recently used out first, so a long task
 * whose layers keep changing cannot grow it without limit.
 */
export interface CountCacheLimits {
  /** Texts shorter than this are counted every time. */
  minLength: number;
  maxEntries: number;
  /** Sum of the lengths of the texts held (UTF-16 code units: about twice that in bytes). */
  maxChars: number;
}

// 64 characters: a recent message stays in the prompt for many steps and is worth keeping; the
// role names and short arguments are not. 1 024 entries hold a long prompt's messages and tools.
export const COUNT_CACHE_DEFAULTS: CountCacheLimits = { minLength: 64, maxEntries: 1_024, maxChars: 2_000_000 };

export class CountCache {
  private readonly entries = new Map<string, number>();
  private chars = 0;
  private readonly limits: CountCacheLimits;

  constructor(limits: Partial<CountCacheLimits> = {}) {
    this.limits = { ...COUNT_CACHE_DEFAULTS, ...limits };
  }

  get size(): number {
    return this.entries.size;
  }

  get heldChars(): number {
    return this.chars;
  }

  count(text: string, countUncached: (text: string) => number): number {
    const { minLength, maxEntries, maxChars } = this.limits;
    if (text.length < minLength || text.length > maxChars) return countUncached(text);
    const known = this.entries.get(text);
    if (known !== undefined) {
      // Re-inserted so the Map's insertion order is the recency order.
      this.entries.delete(text);
      this.entries.set(text, known);
      return known;
    }
    const counted = countUncached(text);
    this.entries.set(text, counted);
    this.chars += text.length;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= maxEntries && this.chars <= maxChars) break;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
    return counted;
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }
}
