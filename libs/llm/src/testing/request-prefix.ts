/**
 * Test support: the cache-eligible prefix of a chat-completions request, as the exact bytes the
 * adapter sent. The prefix is the system message(s) before the first other message plus the
 * `tools` array: what a vendor's prompt cache can reuse from one step to the next (OpenAI renders
 * the tool definitions ahead of the conversation, so both belong to the prefix even though the
 * SDK writes `messages` before `tools` in the body).
 *
 * The parts are exact substrings of the raw body, found by scanning its JSON structure, not
 * parsed and re-serialized: a change in how the adapter or the SDK serializes (key order,
 * escaping, number format) shows up in the bytes, as it would for the vendor. JSON's structural
 * characters are ASCII and every byte of a multi-byte UTF-8 character is 0x80 or above, so the
 * scan works on the bytes directly.
 */
export interface RequestPrefixParts {
  /** Each leading system message, as the JSON object sent (`{"role":"system","content":…}`). */
  system: Buffer[];
  /** The `tools` array as sent, or undefined when the request had none. */
  tools?: Buffer;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

class Scanner {
  constructor(private readonly raw: Buffer) {}

  skipSpace(i: number): number {
    while (i < this.raw.length && isSpace(this.raw[i])) i += 1;
    return i;
  }

  expect(i: number, char: string): number {
    if (this.raw[i] !== char.charCodeAt(0)) throw new Error(`request body: expected '${char}' at byte ${i}`);
    return i + 1;
  }

  /** The end (exclusive) of the value starting at i. */
  value(i: number): number {
    switch (this.raw[i]) {
      case QUOTE:
        return this.string(i);
      case 0x7b: // {
        return this.object(i, () => undefined);
      case 0x5b: // [
        return this.array(i, () => undefined);
      default: {
        let j = i;
        while (j < this.raw.length && !isSpace(this.raw[j]) && !',]}'.includes(String.fromCharCode(this.raw[j])))
          j += 1;
        if (j === i) throw new Error(`request body: expected a value at byte ${i}`);
        return j;
      }
    }
  }

  string(i: number): number {
    let j = this.expect(i, '"');
    while (j < this.raw.length && this.raw[j] !== QUOTE) j += this.raw[j] === BACKSLASH ? 2 : 1;
    return this.expect(j, '"');
  }

  object(i: number, onMember: (key: string, start: number, end: number) => void): number {
    let j = this.skipSpace(this.expect(i, '{'));
    if (this.raw[j] === 0x7d) return j + 1;
    for (;;) {
      const keyEnd = this.string(j);
      const key = JSON.parse(this.raw.toString('utf8', j, keyEnd)) as string;
      const start = this.skipSpace(this.expect(this.skipSpace(keyEnd), ':'));
      const end = this.value(start);
      onMember(key, start, end);
      j = this.skipSpace(end);
      if (this.raw[j] === 0x7d) return j + 1;
      j = this.skipSpace(this.expect(j, ','));
    }
  }

  array(i: number, onElement: (start: number, end: number) => void): number {
    let j = this.skipSpace(this.expect(i, '['));
    if (this.raw[j] === 0x5d) return j + 1;
    for (;;) {
      const end = this.value(j);
      onElement(j, end);
      j = this.skipSpace(end);
      if (this.raw[j] === 0x5d) return j + 1;
      j = this.skipSpace(this.expect(j, ','));
    }
  }
}

/** The leading system messages and the tools array of a raw chat-completions body, as sent. */
export function prefixPartsOf(raw: Buffer): RequestPrefixParts {
  const scanner = new Scanner(raw);
  const parts: RequestPrefixParts = { system: [] };
  scanner.object(scanner.skipSpace(0), (key, start, end) => {
    if (key === 'tools') parts.tools = raw.subarray(start, end);
    if (key !== 'messages') return;
    let leading = true;
    scanner.array(start, (from, to) => {
      const element = raw.subarray(from, to);
      leading &&= (JSON.parse(element.toString('utf8')) as { role?: unknown }).role === 'system';
      if (leading) parts.system.push(element);
    });
  });
  return parts;
}

/**
 * The prefix as one buffer to hash: the system messages then the tools array, exact substrings
 * of the body, each followed by a newline (compact JSON, as the SDK sends, holds none, so the
 * parts cannot run into one another). Two requests with the same prefix give equal buffers.
 */
export function prefixBytesOf(raw: Buffer): Buffer {
  const { system, tools } = prefixPartsOf(raw);
  const newline = Buffer.from('\n');
  return Buffer.concat([...system, ...(tools ? [tools] : [])].flatMap((part) => [part, newline]));
}
