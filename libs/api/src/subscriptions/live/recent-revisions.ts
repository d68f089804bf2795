/**
 * The last revision sent per document, for the most recently touched `capacity` documents. A
 * document forgotten here is sent again on its next change, which the client sees as a repeat
 * of a state it may already hold, never as an older one (reads happen after the notice).
 */
export class RecentRevisions {
  private readonly revisions = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  /** Records `revision` and returns true when it is later than the one sent for `id`. */
  advance(id: string, revision: number): boolean {
    const previous = this.revisions.get(id);
    if (previous !== undefined && revision <= previous) return false;
    this.revisions.delete(id);
    this.revisions.set(id, revision);
    if (this.revisions.size > this.capacity) {
      const [oldest] = this.revisions.keys();
      this.revisions.delete(oldest);
    }
    return true;
  }
}
