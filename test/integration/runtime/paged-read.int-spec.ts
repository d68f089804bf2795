import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import { SqliteBlobStore } from '@lomo/blobs';
import { streams } from '@lomo/contracts';
import { ScriptedModelProvider, type CompletionRequest, type ScriptedStep } from '@lomo/llm';
import { createResultTools } from '@lomo/runtime';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { defineTool, okResult, PAGE_CHARS, ToolRegistry, type ToolResult } from '@lomo/tools';
import { makeToolContext } from '@lomo/tools/testing';
import {
  ArtifactCommandService,
  createWorkspaceTools,
  DocumentTextStore,
  type WorkspaceReadModel,
} from '@lomo/workspace';
import { late } from './support/late';
import { ofType, turnIdsOf } from './support/turn-events';

// Issue 17's must-show "a paged read returns exactly the stored content", over random contents
// (0 to 200 000 characters: ASCII, what JSON escapes, two- and three-byte UTF-8, astral pairs)
// and random page lengths, on the real path each time: for results, the real worker's ToolStep
// storing the tool's output in the harness's FilesystemBlobStore and the real result.read tool
// paging it back; for documents, the artefact service storing the text in a SqliteBlobStore and
// the real artifact.read tool reading it back through a service with a cold text cache.

/** Most calls one model step may make (ModelStepCommitted.toolCallIntents). */
const CALLS_PER_STEP = 64;

const unit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', ' ', 'é', 'ß', '中', '文', '\n', '"', '\\', '\u0001') },
  { weight: 2, arbitrary: fc.constantFrom('😀', '𝄞', '🇫🇷', '👩‍👩‍👧') },
);
const textOf = (size: number, alphabet: string[]) => {
  let text = '';
  for (let i = 0; text.length < size; i += 1) text += alphabet[(i * 7 + (i >> 3)) % alphabet.length];
  return text;
};
/**
 * A content and a page length. Any page length for any size, but at most `maxPages` pages, so the
 * smallest pages come with the smaller contents (every page is a tool call through the store).
 */
const contentAndPageChars = (maxPages: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: 200_000 }), fc.array(unit, { minLength: 1, maxLength: 64 }))
    .map(([size, alphabet]) => textOf(size, alphabet))
    .chain((text) =>
      fc.tuple(
        fc.constant(text),
        // Pages are counted in the stored JSON, where a control character takes six: bounding
        // by the raw length let an escaped content need more steps than a turn may take.
        fc.integer({
          min: Math.max(PAGE_CHARS.min, Math.ceil(JSON.stringify({ text }).length / maxPages)),
          max: PAGE_CHARS.max,
        }),
      ),
    );

const wellFormedPage = (text: string) => !/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(text);

describe('a paged read returns exactly the stored content', () => {
  let harness: RuntimeHarness;
  /** What the fixture tool returns on its next call: the content of the current run. */
  const current: { text: string } = { text: '' };

  beforeAll(async () => {
    const wired: { harness?: RuntimeHarness } = {};
    harness = wired.harness = await RuntimeHarness.open({
      label: 'paged-read',
      tools: ({ store }) => [
        defineTool({
          name: 'fixture.emit',
          description: 'Returns the content of the current run.',
          domain: 'core',
          sideEffect: 'read',
          idempotent: true,
          input: z.strictObject({}),
          run: async () => okResult({ text: current.text }),
        }),
        ...createResultTools({ events: store, blobs: late(() => wired.harness?.blobs) }),
      ],
    });
  });
  afterAll(async () => harness.close());

  it('result.read through the worker: every page in order is the stored result, no page splits a character (property)', async () => {
    await fc.assert(
      fc.asyncProperty(contentAndPageChars(2 * CALLS_PER_STEP), async ([text, pageChars]) => {
        current.text = text;
        const stored = JSON.stringify({ text });
        const pages = Math.max(1, Math.ceil(stored.length / pageChars));
        const { taskId } = await harness.createTask('Read it all', 'lightweight');
        let ref = '';
        const batches = Math.ceil(pages / CALLS_PER_STEP);
        const model = new ScriptedModelProvider([
          { label: 'emit', reply: { toolCalls: [{ name: 'fixture.emit', arguments: {} }] } },
          ...Array.from({ length: batches }, (_, b): ScriptedStep => ({
            label: `pages batch ${b + 1}`,
            reply: (request: CompletionRequest) => {
              // The ref as the model sees it: in the summary of the stored result.
              if (b === 0) ref = /"ref":"([0-9a-f]{64})"/.exec(lastTool(request))?.[1] ?? 'missing';
              const first = b * CALLS_PER_STEP + 1;
              const last = Math.min(pages, first + CALLS_PER_STEP - 1);
              return {
                toolCalls: Array.from({ length: last - first + 1 }, (_, i) => ({
                  name: 'result.read',
                  arguments: { ref, page: first + i, pageChars },
                })),
              };
            },
          })),
          { label: 'answer', reply: { text: 'Read.' } },
        ]);
        const { worker } = harness.worker(`worker-${randomUUID()}`, model, {
          runtime: { maxInlineResultBytes: 1, maxStepsPerTurn: 10 },
        });
        await worker.wake({ taskId, reason: 'message' });
        model.assertAllConsumed();

        const [turnId] = await turnIdsOf(harness, taskId);
        const completed = ofType<{ status: string; result: unknown; resultRef?: { hash: string } }>(
          await harness.read(streams.turn(turnId)),
          'ToolCallCompleted',
        );
        const [emitted, ...reads] = completed;
        expect(emitted.resultRef?.hash).toBe(ref);
        expect((await harness.blobs.get(ref))?.toString('utf8')).toBe(stored);
        const read = reads.map((r) => r.result as { page: number; pages: number; text: string });
        expect(reads.every((r) => r.status === 'ok' && r.resultRef === undefined)).toBe(true);
        expect(read.map((r) => r.page)).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
        expect(read.map((r) => r.text).join('')).toBe(stored);
        expect((JSON.parse(read.map((r) => r.text).join('')) as { text: string }).text).toBe(text);
        expect(read.filter((r) => !wellFormedPage(r.text)).map((r) => r.page)).toEqual([]);
      }),
      { numRuns: 12 },
    );
  }, 180_000);

  it('artifact.read of a stored document: every page, and every span, in order is the stored text (property)', async () => {
    const texts = new SqliteBlobStore({ filename: join(harness.dir, 'texts.sqlite'), synchronous: 'NORMAL' });
    const service = () =>
      new ArtifactCommandService({
        store: harness.store,
        texts: new DocumentTextStore(texts),
        media: texts,
        ids: { uuid: () => randomUUID() },
      });
    const toolsOver = (artifacts: ArtifactCommandService) =>
      new ToolRegistry(
        createWorkspaceTools({
          commands: artifacts,
          reader: artifacts,
          // Reads and writes of one document never list or search.
          readModel: late<WorkspaceReadModel>(() => undefined),
          checkpointIdFor: (callId) => `cp-${callId}`,
        }),
      );
    const ok = (result: ToolResult) => {
      if (result.status !== 'ok') throw new Error(JSON.stringify(result));
      return result.output as { artifact: { artifactId: string; version: number }; offset: number; text: string };
    };
    let calls = 0;
    const call = (tools: ToolRegistry, name: string, args: unknown) =>
      tools.invoke(name, args, makeToolContext({ workspaceId: 'ws_runtime', index: calls++ }));
    try {
      await fc.assert(
        fc.asyncProperty(
          // And a span length: any, down to one unit, within ~200 spans a run.
          contentAndPageChars(200).chain(([text, pageChars]) =>
            fc.tuple(
              fc.constant(text),
              fc.constant(pageChars),
              fc.integer({ min: Math.max(1, Math.ceil(text.length / 200)), max: PAGE_CHARS.max }),
            ),
          ),
          async ([text, pageChars, spanLength]) => {
            const written = ok(await call(toolsOver(service()), 'document.write', { title: 'Paged', text }));
            const { artifactId, version } = written.artifact;
            // Read through a service of its own: its text cache is cold, so the text comes from the store.
            const reader = toolsOver(service());
            const pages = [];
            for (let page = 1; page <= Math.max(1, Math.ceil(text.length / pageChars)); page += 1)
              pages.push(ok(await call(reader, 'artifact.read', { artifactId, range: { page, pageChars } })));
            expect(pages.map((p) => p.text).join('')).toBe(text);
            expect(pages.every((p) => p.artifact.version === version && wellFormedPage(p.text))).toBe(true);
            const past = await call(reader, 'artifact.read', {
              artifactId,
              range: { page: pages.length + 1, pageChars },
            });
            expect(past.status === 'error' && past.error.code).toBe('ARTIFACT_RANGE_OUT_OF_RANGE');

            // Spans of one length from offset 0, each starting where the last one ended (a span
            // is widened to whole characters, so none is empty before the end).
            let joined = '';
            while (joined.length < text.length) {
              const range = { offset: joined.length, length: spanLength };
              const span = ok(await call(reader, 'artifact.read', { artifactId, range }));
              expect([span.offset, span.text.length > 0, wellFormedPage(span.text)]).toEqual([
                joined.length,
                true,
                true,
              ]);
              joined += span.text;
            }
            expect(joined).toBe(text);
          },
        ),
        { numRuns: 25 },
      );
    } finally {
      await texts.close();
    }
  }, 180_000);
});

const lastTool = (request: CompletionRequest) =>
  [...request.messages].reverse().find((m) => m.role === 'tool')?.content ?? '';
