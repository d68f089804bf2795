import { Writable } from 'node:stream';

/** A pino destination that keeps every JSON line, for tests that assert on logs. */
export class MemoryLogDestination extends Writable {
  readonly lines: Record<string, unknown>[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(JSON.parse(line));
    done();
  }
}
