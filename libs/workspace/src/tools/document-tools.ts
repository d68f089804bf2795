import { z } from 'zod';
import { defineTool, errorResult, PAGE_CHARS, pageCount, textPage, textRange, type ToolDefinition } from '@lomo/tools';
import { ArtifactRefusedError } from '../artifact-errors';
import type { WorkspaceToolDeps } from './workspace-tool-deps';
import {
  agentAuthor,
  artifactIdForCall,
  artifactResult,
  guarded,
  notFoundResult,
  ownEarlierWrite,
  writeMeta,
} from './tool-support';

export const MAX_DOCUMENT_CHARS = 500_000;

const artifactId = z.uuid().describe('Id of the document artefact');
const version = z.number().int().min(1);

/** document.read: the latest text, or one version; what later writes name as their base. */
export function documentReadTool(deps: WorkspaceToolDeps): ToolDefinition<{ artifactId: string; version?: number }> {
  return defineTool({
    name: 'document.read',
    description:
      'Read a document of the workspace (a storyboard, a script): its latest text, or the text of one version. Returns the version, which document.write and document.edit need as their base.',
    domain: 'document',
    sideEffect: 'read',
    idempotent: true,
    input: z.strictObject({ artifactId, version: version.optional().describe('A version; default the latest') }),
    run: (input, context) =>
      guarded(async () => {
        const snapshot = await deps.reader.snapshot(context.workspaceId, input.artifactId);
        if (snapshot === undefined || snapshot.kind !== 'document') return notFoundResult(input.artifactId);
        const read = await deps.reader.documentText(context.workspaceId, input.artifactId, input.version);
        if (read === undefined) return notFoundResult(input.artifactId);
        return artifactResult(input.artifactId, read.version, {
          title: snapshot.title,
          latestVersion: snapshot.version,
          deleted: snapshot.deleted,
          text: read.text,
        });
      }),
  });
}

type ReadRange = { offset: number; length: number } | { page: number; pageChars: number };
type RangeReadInput = { artifactId: string; version?: number; range: ReadRange };

/** A range read past the end of the text; the message says how long it is. */
export const ARTIFACT_RANGE_OUT_OF_RANGE = 'ARTIFACT_RANGE_OUT_OF_RANGE';

const range = z
  .union([
    z.strictObject({
      page: z.number().int().min(1).max(1_000_000).describe('1 for the first page'),
      pageChars: z.number().int().min(PAGE_CHARS.min).max(PAGE_CHARS.max).default(PAGE_CHARS.default),
    }),
    z.strictObject({
      offset: z.number().int().min(0).max(10_000_000),
      length: z.number().int().min(1).max(PAGE_CHARS.max),
    }),
  ])
  .default({ page: 1, pageChars: PAGE_CHARS.default })
  .describe('A page ({page, pageChars}) or a span ({offset, length}); default the first page');

/**
 * artifact.read: part of a document's text, exactly as stored, for documents too long to read
 * whole. Same unit and rules as result.read (@lomo/tools' text pages): UTF-16 code units, a page
 * boundary inside a surrogate pair moves one back, a span widens to whole characters. Its output
 * carries `artifact` like document.read, so a partial read counts as having seen that version;
 * document.read is unchanged.
 */
export function artifactReadTool(deps: WorkspaceToolDeps): ToolDefinition<RangeReadInput> {
  return defineTool({
    name: 'artifact.read',
    description:
      'Read part of a document exactly as stored, for a document too long to read whole: a page ({page, pageChars}) or a span ({offset, length}) of its text, in characters (UTF-16 code units; a page boundary inside an emoji moves one back, a span is widened to whole characters). Returns that text with where it starts, the total length and the version (latest by default); document.write and document.edit need that version as their base.',
    domain: 'document',
    sideEffect: 'read',
    idempotent: true,
    returnsPage: true,
    input: z.strictObject({ artifactId, version: version.optional().describe('A version; default the latest'), range }),
    run: (input, context) =>
      guarded(async () => {
        const snapshot = await deps.reader.snapshot(context.workspaceId, input.artifactId);
        if (snapshot === undefined) return notFoundResult(input.artifactId);
        if (snapshot.kind !== 'document')
          return errorResult(
            'ARTIFACT_KIND_MISMATCH',
            `Artefact ${input.artifactId} is a ${snapshot.kind}, not a document: artifact.read reads document text`,
            false,
          );
        const read = await deps.reader.documentText(context.workspaceId, input.artifactId, input.version);
        if (read === undefined) return notFoundResult(input.artifactId);
        const total = read.text.length;
        const r = input.range;
        const slice = 'page' in r ? textPage(read.text, r.page, r.pageChars) : textRange(read.text, r.offset, r.length);
        if (slice === undefined)
          return errorResult(
            ARTIFACT_RANGE_OUT_OF_RANGE,
            'page' in r
              ? `Version ${read.version} has ${pageCount(total, r.pageChars)} page(s) of ${r.pageChars} characters (${total} in all); page ${r.page} is past the last`
              : `Version ${read.version} has ${total} characters; offset ${r.offset} is past the end`,
            false,
          );
        return artifactResult(input.artifactId, read.version, {
          title: snapshot.title,
          latestVersion: snapshot.version,
          deleted: snapshot.deleted,
          totalChars: total,
          offset: slice.offset,
          ...('page' in r ? { page: r.page, pages: pageCount(total, r.pageChars), pageChars: r.pageChars } : {}),
          text: slice.text,
        });
      }),
  });
}

type WriteInput = { artifactId?: string; baseVersion?: number; title?: string; text: string };

/**
 * document.write: a whole rewrite naming its base version, or (no artifactId) a new document
 * whose id derives from the call id, so a retry creates nothing twice.
 */
export function documentWriteTool(deps: WorkspaceToolDeps): ToolDefinition<WriteInput> {
  return defineTool({
    name: 'document.write',
    description:
      'Write a whole document. Without artifactId it creates a new document in the workspace (give a title), bound to this task. With artifactId it replaces the text and needs baseVersion, the version you read: if someone changed it since, nothing is written and you get the current version to read again.',
    domain: 'document',
    sideEffect: 'write',
    progress: 'artifact_version',
    idempotent: true,
    input: z
      .strictObject({
        artifactId: artifactId.optional(),
        baseVersion: version.optional().describe('The version you read (required with artifactId)'),
        title: z.string().trim().min(1).max(300).optional().describe('Title of a new document'),
        text: z.string().max(MAX_DOCUMENT_CHARS).describe('The whole text, markdown'),
      })
      .refine((i) => i.artifactId === undefined || i.baseVersion !== undefined, {
        message: 'a rewrite names the baseVersion it read',
        path: ['baseVersion'],
      }),
    run: (input, context) =>
      guarded(async () => {
        if (input.artifactId === undefined) {
          const id = artifactIdForCall(context);
          const created = await deps.commands.create(
            {
              artifactId: id,
              kind: 'document',
              title: input.title ?? (firstLine(input.text) || 'Untitled document'),
              by: agentAuthor(context),
              taskId: context.taskId,
              content: { type: 'document', text: input.text, contentType: 'text/markdown' },
            },
            writeMeta(context),
          );
          return artifactResult(id, created.version, { created: true });
        }
        const target = input.artifactId;
        try {
          const written = await deps.commands.rewriteDocument(
            { artifactId: target, baseVersion: input.baseVersion!, text: input.text, by: agentAuthor(context) },
            writeMeta(context),
          );
          return artifactResult(target, written.version, { created: false });
        } catch (error) {
          const own = await retriedWrite(deps, context, target, error);
          if (own !== undefined) return artifactResult(target, own, { created: false });
          throw error;
        }
      }),
  });
}

type EditInput = { artifactId: string; baseVersion: number; edits: Array<{ old: string; new: string }> };

/** document.edit: exact snippets, all or nothing; cheap for a large document. */
export function documentEditTool(deps: WorkspaceToolDeps): ToolDefinition<EditInput> {
  return defineTool({
    name: 'document.edit',
    description:
      'Edit parts of a document: each edit replaces an exact snippet `old` (which must occur exactly once in the latest text) by `new`. All edits apply or none does; the result names the new version. Prefer this to document.write for small changes.',
    domain: 'document',
    sideEffect: 'write',
    progress: 'artifact_version',
    idempotent: true,
    input: z.strictObject({
      artifactId,
      baseVersion: version.describe('The version you read'),
      edits: z
        .array(z.strictObject({ old: z.string().min(1).max(20_000), new: z.string().max(20_000) }))
        .min(1)
        .max(100),
    }),
    run: (input, context) =>
      guarded(async () => {
        try {
          const written = await deps.commands.editDocument(
            {
              artifactId: input.artifactId,
              baseVersion: input.baseVersion,
              edits: input.edits,
              by: agentAuthor(context),
            },
            writeMeta(context),
          );
          return artifactResult(input.artifactId, written.version, { edits: input.edits.length });
        } catch (error) {
          const own = await retriedWrite(deps, context, input.artifactId, error);
          if (own !== undefined) return artifactResult(input.artifactId, own, { edits: input.edits.length });
          throw error;
        }
      }),
  });
}

/** A stale-base or snippet refusal of a retried call whose first run did write: its version. */
export async function retriedWrite(
  deps: WorkspaceToolDeps,
  context: Parameters<ToolDefinition['run']>[1],
  artifactId: string,
  error: unknown,
): Promise<number | undefined> {
  if (!(error instanceof ArtifactRefusedError)) return undefined;
  if (error.code === 'ARTIFACT_NOT_FOUND' || error.code === 'ARTIFACT_DELETED') return undefined;
  return ownEarlierWrite(deps.readModel, context, artifactId);
}

const firstLine = (text: string) =>
  (text.split('\n').find((l) => l.trim() !== '') ?? '')
    .replace(/^#+\s*/, '')
    .trim()
    .slice(0, 300);
