import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { FilesystemBlobStore } from '@lomo/blobs';
import { InMemoryEventStore } from '@lomo/bus/testing';
import { makeCallId, streams } from '@lomo/contracts';
import { PAGE_CHARS, ToolRegistry, ToolErrorCodes, type ToolResult } from '@lomo/tools';
import { makeToolContext, TEST_TASK_ID, TEST_TURN_ID, TEST_WORKSPACE_ID } from '@lomo/tools/testing';
import { createResultTools, ResultReadErrorCodes } from './result-tools';

const OLDER_TURN = '33333333-3333-4333-8333-333333333333';

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'lomo-result-read-'));
  const blobs = new FilesystemBlobStore(dir);
  const events = new InMemoryEventStore();
  const registry = new ToolRegistry(createResultTools({ events, blobs }));
  const meta = (workspaceId = TEST_WORKSPACE_ID) => ({
    correlationId: 'c1',
    causationId: null,
    workspaceId,
    actor: { kind: 'system' as const, component: 'executor' },
  });
  /** A large result as ToolStep records it: its JSON in the BlobStore, its ref on the completion. */
  const record = async (output: unknown, options: { turnId?: string; workspaceId?: string } = {}) => {
    const turnId = options.turnId ?? TEST_TURN_ID;
    const json = JSON.stringify(output);
    const ref = await blobs.put(json, 'application/json');
    await events.append(
      streams.turn(turnId),
      [
        {
          eventId: randomUUID(),
          type: 'ToolCallCompleted',
          data: { callId: makeCallId(turnId, 1, 0), status: 'ok', result: {}, resultRef: ref },
          metadata: meta(options.workspaceId),
        },
      ],
      'any',
    );
    return { json, ref };
  };
  const openTurn = (turnId: string) =>
    events.append(
      streams.task(TEST_TASK_ID),
      [{ eventId: randomUUID(), type: 'TurnOpened', data: { turnId, reason: 'message' }, metadata: meta() }],
      'any',
    );
  const read = (args: Record<string, unknown>, overrides: Parameters<typeof makeToolContext>[0] = {}) =>
    registry.invoke('result.read', args, makeToolContext({ step: 2, ...overrides }));
  return {
    blobs,
    events,
    registry,
    record,
    openTurn,
    read,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const ok = (result: ToolResult) => {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result.output as {
    ref: string;
    page: number;
    pages: number;
    totalChars: number;
    offset: number;
    text: string;
  };
};
const errorCode = (result: ToolResult) => (result.status === 'error' ? result.error.code : result.status);

describe('result.read', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(() => (s = setup()));
  afterEach(() => s.dispose());

  it('is a core read, idempotent, whose output is a page (recorded inline, never stored again)', () => {
    const tool = s.registry.get('result.read')!;
    expect([tool.domain, tool.sideEffect, tool.idempotent, tool.returnsPage]).toEqual(['core', 'read', true, true]);
  });

  it("returns page n of the task's stored result, exactly as stored, with the page count and total", async () => {
    const { json, ref } = await s.record({
      items: Array.from({ length: 3_000 }, (_, i) => ({ i, name: `item ${i}` })),
    });
    const first = ok(await s.read({ ref: ref.hash, page: 1 }));
    expect(first).toEqual({
      ref: ref.hash,
      page: 1,
      pages: Math.ceil(json.length / PAGE_CHARS.default),
      pageChars: PAGE_CHARS.default,
      totalChars: json.length,
      offset: 0,
      text: json.slice(0, PAGE_CHARS.default),
    });
    const last = ok(await s.read({ ref: ref.hash, page: first.pages }));
    expect(last.text).toBe(json.slice((first.pages - 1) * PAGE_CHARS.default));
    const small = ok(await s.read({ ref: ref.hash, page: 3, pageChars: 1_000 }));
    expect(small).toMatchObject({ offset: 2_000, text: json.slice(2_000, 3_000) });
  });

  it('reads a result recorded in an earlier turn of the task', async () => {
    const { json, ref } = await s.record('x'.repeat(30_000), { turnId: OLDER_TURN });
    await s.openTurn(OLDER_TURN);
    await s.openTurn(TEST_TURN_ID);
    expect(ok(await s.read({ ref: ref.hash, page: 1, pageChars: 32_000 })).text).toBe(json);
  });

  it("refuses a ref this task did not record, even when the blob exists: another task's, another workspace's", async () => {
    // Another task's turn (not opened by this task) and this task's turn under another workspace.
    const theirs = await s.record({ secret: 'a'.repeat(20_000) }, { turnId: OLDER_TURN });
    const foreign = await s.record({ secret: 'b'.repeat(20_000) }, { workspaceId: 'ws_other' });
    const stray = await s.blobs.put('{"never":"recorded"}', 'application/json');
    for (const ref of [theirs.ref, foreign.ref, stray]) {
      expect(await s.blobs.get(ref.hash)).toBeDefined();
      const refused = await s.read({ ref: ref.hash, page: 1 });
      expect(refused).toMatchObject({
        status: 'error',
        error: { code: ResultReadErrorCodes.notFound, retriable: false },
      });
    }
    // The same task id in another workspace's context does not see this workspace's results either.
    const mine = await s.record({ mine: 'c'.repeat(20_000) });
    expect(errorCode(await s.read({ ref: mine.ref.hash, page: 1 }, { workspaceId: 'ws_other' }))).toBe(
      ResultReadErrorCodes.notFound,
    );
    expect(errorCode(await s.read({ ref: mine.ref.hash, page: 1 }))).toBe('ok');
  });

  it('says how many pages there are when asked for one past the last', async () => {
    const { json, ref } = await s.record('y'.repeat(20_000));
    const pages = Math.ceil(json.length / 8_000);
    const refused = await s.read({ ref: ref.hash, page: pages + 1 });
    expect(refused).toMatchObject({ status: 'error', error: { code: ResultReadErrorCodes.pageOutOfRange } });
    expect(refused.status === 'error' && refused.error.message).toContain(`has ${pages} page(s) of 8000 characters`);
  });

  it('reads nothing once the content was deleted (forgetting)', async () => {
    const { ref } = await s.record('z'.repeat(20_000));
    expect(errorCode(await s.read({ ref: ref.hash, page: 1 }))).toBe('ok');
    await s.blobs.delete(ref.hash);
    expect(await s.read({ ref: ref.hash, page: 1 })).toMatchObject({
      status: 'error',
      error: { code: ResultReadErrorCodes.notFound, message: expect.stringContaining('deleted') },
    });
  });

  it('refuses malformed arguments before reading anything', async () => {
    const { ref } = await s.record('w'.repeat(20_000));
    for (const args of [
      { ref: ref.hash, page: 0 },
      { ref: ref.hash, page: 1, pageChars: PAGE_CHARS.min - 1 },
      { ref: ref.hash, page: 1, pageChars: PAGE_CHARS.max + 1 },
      { ref: ref.hash.toUpperCase(), page: 1 },
      { ref: '../etc/passwd', page: 1 },
    ])
      expect(errorCode(await s.read(args))).toBe(ToolErrorCodes.invalidArguments);
  });

  it('a paged read returns exactly the stored content: every page in order, over random sizes and page lengths (property)', async () => {
    // Code units of every kind: ASCII, what JSON escapes, two- and three-byte UTF-8, astral pairs.
    const unit = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('a', 'b', ' ', 'é', 'ß', '中', '文', '\n', '"', '\\', '\u0001') },
      { weight: 2, arbitrary: fc.constantFrom('😀', '𝄞', '🇫🇷', '👩‍👩‍👧') },
    );
    const textOf = (size: number, alphabet: string[]) => {
      let text = '';
      for (let i = 0; text.length < size; i += 1) text += alphabet[(i * 7 + (i >> 3)) % alphabet.length];
      return text;
    };
    // Any page length for any size, but at most ~120 pages a run (each page re-reads the blob),
    // so the smallest pages come with the smaller contents.
    const sample = fc.integer({ min: 0, max: 200_000 }).chain((size) =>
      fc.tuple(
        fc.array(unit, { minLength: 1, maxLength: 64 }).map((alphabet) => textOf(size, alphabet)),
        fc.integer({ min: Math.max(PAGE_CHARS.min, Math.ceil(size / 120)), max: PAGE_CHARS.max }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(sample, async ([text, pageChars]) => {
        const { json, ref } = await s.record({ text });
        const first = ok(await s.read({ ref: ref.hash, page: 1, pageChars }));
        const pages = [first];
        for (let page = 2; page <= first.pages; page += 1)
          pages.push(ok(await s.read({ ref: ref.hash, page, pageChars })));
        const joined = pages.map((p) => p.text).join('');
        expect(joined).toBe(json);
        expect(Buffer.from(joined, 'utf8').equals((await s.blobs.get(ref.hash))!)).toBe(true);
        // Each page alone is well-formed text: no half of an astral character at either end.
        expect(pages.filter((p) => /^[\udc00-\udfff]|[\ud800-\udbff]$/.test(p.text)).map((p) => p.page)).toEqual([]);
        expect((JSON.parse(joined) as { text: string }).text).toBe(text);
        expect(pages.map((p) => p.offset)).toEqual(
          pages.map((_, i) => pages.slice(0, i).reduce((n, p) => n + p.text.length, 0)),
        );
        expect(errorCode(await s.read({ ref: ref.hash, page: first.pages + 1, pageChars }))).toBe(
          ResultReadErrorCodes.pageOutOfRange,
        );
      }),
      // Each run stores up to 600 kB (fsynced) and reads it back page by page.
      { numRuns: 30 },
    );
  }, 60_000);
});
