/**
 * Runs async work one piece at a time, in call order. Bus partitions, the sweep and a rebuild's
 * final catch-up share one engine per projection; serializing them keeps its caches coherent
 * (other instances are kept apart by compare-and-set instead).
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work, work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
