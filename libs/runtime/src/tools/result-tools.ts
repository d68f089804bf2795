import { z } from 'zod';
import type { BlobStore } from '@lomo/blobs';
import { streams, type EventEnvelope } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import {
  defineTool,
  errorResult,
  okResult,
  PAGE_CHARS,
  pageCount,
  textPage,
  type ToolContext,
  type ToolDefinition,
} from '@lomo/tools';

export const RESULT_READ = 'result.read';

export const ResultReadErrorCodes = {
  /** Not a result this task recorded (or not in this workspace), or its content was deleted. */
  notFound: 'RESULT_NOT_FOUND',
  /** A page past the last one; the message says how many there are. */
  pageOutOfRange: 'RESULT_PAGE_OUT_OF_RANGE',
} as const;

export interface ResultToolDeps {
  /** The task's streams: which stored results this task recorded (what authorizes a ref). */
  events: Pick<EventStore, 'readStream'>;
  blobs: Pick<BlobStore, 'get'>;
}

type ReadInput = { ref: string; page: number; pageChars: number };

/** Refs found among a task's results, remembered: a recorded completion never changes. */
const GRANTS_KEPT = 1_024;

/**
 * The runtime's own tools over what it stores for the model. Today: result.read, which pages
 * through a tool result too large for the context (ToolStep stores it in the BlobStore and
 * records a summary naming its ref).
 */
export function createResultTools(deps: ResultToolDeps): ToolDefinition[] {
  return [resultReadTool(deps)] as ToolDefinition[];
}

/**
 * result.read: one page of a stored result, exactly as stored (its JSON text). The BlobStore is
 * content-addressed and shared by every workspace, so a hash alone proves nothing: only refs this
 * task recorded as a result (ToolCallCompleted.resultRef in one of its turns, in this workspace)
 * are read, and any other ref is "not found", whether or not the blob exists.
 */
export function resultReadTool(deps: ResultToolDeps): ToolDefinition<ReadInput> {
  const granted = new Set<string>();
  return defineTool({
    name: RESULT_READ,
    description: `Read a tool result that was too large for the context, page by page, exactly as stored (its JSON text). Its summary names its ref and its pages. A page is pageChars characters (UTF-16 code units), except that a page never ends inside an emoji or other character beyond U+FFFF: it then ends one unit earlier and the next page starts there; all pages in order are the whole text.`,
    domain: 'core',
    sideEffect: 'read',
    idempotent: true,
    returnsPage: true,
    input: z.strictObject({
      ref: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe('The ref the summary of a large result names'),
      page: z.number().int().min(1).max(1_000_000).describe('1 for the first page'),
      pageChars: z
        .number()
        .int()
        .min(PAGE_CHARS.min)
        .max(PAGE_CHARS.max)
        .default(PAGE_CHARS.default)
        .describe(`Characters a page; the summary counts pages of ${PAGE_CHARS.default}`),
    }),
    async run(input, context) {
      const grant = `${context.workspaceId}/${context.taskId}/${input.ref}`;
      if (!granted.has(grant)) {
        if (!(await recordedByTask(deps.events, context, input.ref))) return notFound(input.ref);
        remember(granted, grant);
      }
      const content = await deps.blobs.get(input.ref);
      if (content === undefined)
        return errorResult(ResultReadErrorCodes.notFound, `The content of result ${input.ref} was deleted`, false);
      const text = content.toString('utf8');
      const pages = pageCount(text.length, input.pageChars);
      const page = textPage(text, input.page, input.pageChars);
      if (page === undefined)
        return errorResult(
          ResultReadErrorCodes.pageOutOfRange,
          `Result ${input.ref} has ${pages} page(s) of ${input.pageChars} characters (${text.length} in all); page ${input.page} is past the last`,
          false,
        );
      return okResult({
        ref: input.ref,
        page: input.page,
        pages,
        pageChars: input.pageChars,
        totalChars: text.length,
        offset: page.offset,
        text: page.text,
      });
    },
  });
}

const notFound = (ref: string) =>
  errorResult(
    ResultReadErrorCodes.notFound,
    `No stored result ${ref} among this task's tool results: use the ref a large result's summary names`,
    false,
  );

/** The current turn first (the usual case: the result the model just saw), then older turns, newest first. */
async function recordedByTask(events: ResultToolDeps['events'], context: ToolContext, hash: string): Promise<boolean> {
  if (await recordedIn(events, context, streams.turn(context.turnId), hash)) return true;
  const task = await events.readStream(streams.task(context.taskId));
  const turns = task
    .filter((e) => e.type === 'TurnOpened' && inWorkspace(e, context))
    .map((e) => (e.data as { turnId: string }).turnId)
    .filter((turnId) => turnId !== context.turnId)
    .reverse();
  for (const turnId of turns) if (await recordedIn(events, context, streams.turn(turnId), hash)) return true;
  return false;
}

async function recordedIn(
  events: ResultToolDeps['events'],
  context: ToolContext,
  streamId: string,
  hash: string,
): Promise<boolean> {
  const recorded = await events.readStream(streamId);
  return recorded.some(
    (e) =>
      e.type === 'ToolCallCompleted' &&
      inWorkspace(e, context) &&
      (e.data as { resultRef?: { hash: string } }).resultRef?.hash === hash,
  );
}

/** The workspace is the tenant boundary: another workspace's events count for nothing. */
const inWorkspace = (event: EventEnvelope, context: ToolContext) => event.metadata.workspaceId === context.workspaceId;

function remember(granted: Set<string>, grant: string): void {
  if (granted.size >= GRANTS_KEPT) granted.delete(granted.values().next().value as string);
  granted.add(grant);
}
