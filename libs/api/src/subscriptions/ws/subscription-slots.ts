/**
 * Open subscriptions per token on this instance, over all of its connections. A slot is taken
 * before an operation runs and given back when it completes, fails or its socket closes;
 * releasing is idempotent because graphql-ws may report the end of one operation twice.
 */
export class SubscriptionSlots {
  private readonly byToken = new Map<string, Set<string>>();

  constructor(private readonly maxPerToken: number) {}

  acquire(tokenId: string, slot: string): boolean {
    const slots = this.byToken.get(tokenId) ?? new Set<string>();
    if (slots.has(slot)) return true;
    if (slots.size >= this.maxPerToken) return false;
    slots.add(slot);
    this.byToken.set(tokenId, slots);
    return true;
  }

  release(tokenId: string, slot: string): void {
    const slots = this.byToken.get(tokenId);
    if (slots === undefined) return;
    slots.delete(slot);
    if (slots.size === 0) this.byToken.delete(tokenId);
  }

  count(tokenId: string): number {
    return this.byToken.get(tokenId)?.size ?? 0;
  }
}
