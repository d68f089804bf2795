import { z } from 'zod';
import { streams } from '@lomo/contracts';
import { ScriptedModelProvider, type CompletionRequest, type ScriptedReply } from '@lomo/llm';
import { createResultTools, RESULT_SUMMARY_MAX_CHARS } from '@lomo/runtime';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { defineTool, okResult, type JsonValue } from '@lomo/tools';
import { late } from './support/late';
import { ofType, turnIdsOf } from './support/turn-events';

// Issue 17 item 3 through the real worker: a tool returns a 300 kB result; ToolStep stores it in
// the BlobStore and records a summary of its shape naming its ref; the model sees that summary,
// not the result, then calls result.read for pages 1 and 2 and sees exactly the stored text.

/** About 300 kB of JSON, with non-ASCII and astral characters, as an asset listing would be. */
const LISTING = {
  workspace: 'harbour film',
  total: 1_500,
  assets: Array.from({ length: 1_500 }, (_, i) => ({
    assetId: `asset-${i}`,
    kind: i % 3 === 0 ? 'video' : 'image',
    title: `Plan ${i} — le port à l’aube 🌅`,
    tags: ['harbour', 'dawn', 'fog', '港口'],
    prompt: 'Fishing boats coming in through the fog, gulls, wet cobblestones, a lighthouse blinking.',
  })),
};
const STORED = JSON.stringify(LISTING);

const largeListing = defineTool({
  name: 'fixture.large_listing',
  description: 'Returns a listing of about 300 kB.',
  domain: 'core',
  sideEffect: 'read',
  idempotent: true,
  input: z.strictObject({}),
  run: async () => okResult(LISTING as unknown as JsonValue),
});

const toolMessages = (request: CompletionRequest) => request.messages.filter((m) => m.role === 'tool');
const lastToolMessage = (request: CompletionRequest) => toolMessages(request).at(-1)?.content ?? '';
const refIn = (content: string) => /"ref":"([0-9a-f]{64})"/.exec(content)?.[1];

/** The page a result.read returned, wherever the context puts the tool's output in its message. */
function pageIn(content: string): { page: number; pages: number; text: string } | undefined {
  const visit = (value: unknown): { page: number; pages: number; text: string } | undefined => {
    if (value === null || typeof value !== 'object') return undefined;
    const record = value as Record<string, unknown>;
    if (typeof record.text === 'string' && typeof record.page === 'number')
      return record as { page: number; pages: number; text: string };
    for (const child of Object.values(record)) {
      const found = visit(child);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(JSON.parse(content));
}

describe('a large tool result: summarized in the context, read back page by page exactly as stored', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => {
    const wired: { harness?: RuntimeHarness } = {};
    harness = wired.harness = await RuntimeHarness.open({
      label: 'large-results',
      tools: ({ store }) => [
        largeListing,
        ...createResultTools({ events: store, blobs: late(() => wired.harness?.blobs) }),
      ],
    });
  });
  afterEach(async () => harness.close());

  it('the model sees the summary, reads pages 1 and 2 with result.read and gets the exact stored text', async () => {
    const { taskId } = await harness.createTask('List every asset of the harbour film', 'lightweight');
    const seen: { summary?: string; ref?: string; page1?: string; page2?: string } = {};
    const readPage =
      (page: number) =>
      (request: CompletionRequest): ScriptedReply => {
        if (page === 1) {
          seen.summary = lastToolMessage(request);
          seen.ref = refIn(seen.summary);
        } else seen.page1 = lastToolMessage(request);
        return { toolCalls: [{ name: 'result.read', arguments: { ref: seen.ref ?? 'missing', page } }] };
      };
    const model = new ScriptedModelProvider([
      { label: 'list', reply: { toolCalls: [{ name: 'fixture.large_listing', arguments: {} }] } },
      { label: 'read page 1', reply: readPage(1) },
      { label: 'read page 2', reply: readPage(2) },
      {
        label: 'answer',
        reply: (request) => {
          seen.page2 = lastToolMessage(request);
          return { text: 'There are 1 500 assets.' };
        },
      },
    ]);
    const { worker } = harness.worker('worker-a', model);

    await worker.wake({ taskId, reason: 'message' });
    model.assertAllConsumed();

    // The result went to the BlobStore whole; the completion holds its ref and a summary.
    const [turnId] = await turnIdsOf(harness, taskId);
    const completions = ofType<{ status: string; result?: unknown; resultRef?: { hash: string; bytes: number } }>(
      await harness.read(streams.turn(turnId)),
      'ToolCallCompleted',
    );
    expect(completions.map((c) => [c.status, c.resultRef !== undefined])).toEqual([
      ['ok', true],
      ['ok', false],
      ['ok', false],
    ]);
    const [listed] = completions;
    expect(listed.resultRef?.bytes).toBe(Buffer.byteLength(STORED, 'utf8'));
    expect(listed.resultRef?.bytes).toBeGreaterThan(300_000);
    expect((await harness.blobs.get(listed.resultRef!.hash))?.toString('utf8')).toBe(STORED);

    // What the model saw of it: the summary (shape, ref, pages), not the 300 kB.
    expect(seen.ref).toBe(listed.resultRef?.hash);
    expect(seen.summary!.length).toBeLessThan(RESULT_SUMMARY_MAX_CHARS + 500);
    expect(seen.summary).toContain('"total":1500');
    expect(seen.summary).toContain('"assetId":"asset-0"');
    expect(seen.summary).toContain('…(+1497 more, 1500 items)');
    expect(seen.summary).toContain(`"pages":${Math.ceil(STORED.length / 8_000)}`);
    expect(seen.summary).toContain('result.read');

    // Pages 1 and 2 as the model read them: exactly the stored text, 8 000 characters each.
    expect(pageIn(seen.page1!)).toMatchObject({ page: 1, pages: Math.ceil(STORED.length / 8_000) });
    expect(pageIn(seen.page1!)?.text).toBe(STORED.slice(0, 8_000));
    expect(pageIn(seen.page2!)?.text).toBe(STORED.slice(8_000, 16_000));
  });

  it('another task cannot read that result by its hash: RESULT_NOT_FOUND, and the model is told so', async () => {
    const first = await harness.createTask('List every asset', 'lightweight');
    const other = await harness.createTask('Something else', 'lightweight');
    let ref: string | undefined;
    let refusal = '';
    const model = new ScriptedModelProvider([
      { label: 'list', reply: { toolCalls: [{ name: 'fixture.large_listing', arguments: {} }] } },
      {
        label: 'done',
        reply: (request) => {
          ref = refIn(lastToolMessage(request));
          return { text: 'Listed.' };
        },
      },
      { label: 'guess', reply: () => ({ toolCalls: [{ name: 'result.read', arguments: { ref: ref!, page: 1 } }] }) },
      {
        label: 'refused',
        reply: (request) => {
          refusal = lastToolMessage(request);
          return { text: 'I cannot read it.' };
        },
      },
    ]);
    const { worker } = harness.worker('worker-a', model);
    await worker.wake({ taskId: first.taskId, reason: 'message' });
    await worker.wake({ taskId: other.taskId, reason: 'message' });
    model.assertAllConsumed();

    expect(ref).toMatch(/^[0-9a-f]{64}$/);
    expect(refusal).toContain('RESULT_NOT_FOUND');
    expect(refusal).not.toContain('asset-0');
  });
});
