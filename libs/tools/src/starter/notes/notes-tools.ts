import { z } from 'zod';
import { okResult } from '../../tool-results';
import { defineTool, type ToolDefinition } from '../../tool.port';
import type { Note, NotesStore } from './notes-store.port';

const PREVIEW_CHARS = 280;

const title = z.string().trim().min(1).max(200).describe('Short title of the note');
const noteId = z.uuid().describe('Id of the note, as notes.list or notes.create returned it');

/** notes.create: idempotent by the call's key, so a retried or taken-over call never makes two notes. */
export function createNoteTool(notes: NotesStore): ToolDefinition<{ title: string; body: string }> {
  return defineTool({
    name: 'notes.create',
    description: 'Create a note in the workspace (visible to every task of this workspace).',
    domain: 'core',
    sideEffect: 'write',
    idempotent: true,
    input: z.strictObject({ title, body: z.string().max(20_000).default('').describe('Text of the note') }),
    async run(input, context) {
      const { note, created } = await notes.create({
        workspaceId: context.workspaceId,
        taskId: context.taskId,
        title: input.title,
        body: input.body,
        idempotencyKey: context.idempotencyKey,
        at: context.clock.now(),
      });
      return okResult({ noteId: note.noteId, title: note.title, created });
    },
  });
}

export function listNotesTool(notes: NotesStore): ToolDefinition<{ limit: number; titleContains?: string }> {
  return defineTool({
    name: 'notes.list',
    description: 'List the notes of the workspace, newest first, with a short preview of each.',
    domain: 'core',
    sideEffect: 'read',
    idempotent: true,
    input: z.strictObject({
      limit: z.number().int().min(1).max(100).default(20).describe('How many notes at most'),
      titleContains: z.string().min(1).max(200).optional().describe('Only notes whose title contains this text'),
    }),
    async run(input, context) {
      const found = await notes.list(context.workspaceId, { limit: input.limit, titleContains: input.titleContains });
      return okResult({ count: found.length, notes: found.map(preview) });
    },
  });
}

/** Irreversible: the registry's authorization asks the person before each call. */
export function deleteNoteTool(notes: NotesStore): ToolDefinition<{ noteId: string }> {
  return defineTool({
    name: 'notes.delete',
    description: 'Delete a note for good. Cannot be undone; the user is asked to confirm first.',
    domain: 'core',
    sideEffect: 'irreversible',
    idempotent: false,
    input: z.strictObject({ noteId }),
    async run(input, context) {
      await notes.delete({
        workspaceId: context.workspaceId,
        noteId: input.noteId,
        idempotencyKey: context.idempotencyKey,
        at: context.clock.now(),
      });
      return okResult({ noteId: input.noteId, deleted: true });
    },
  });
}

/** Not idempotent on purpose: each run appends again, which the runtime's "outcome unknown" path must prevent. */
export function appendLineTool(notes: NotesStore): ToolDefinition<{ noteId: string; line: string }> {
  return defineTool({
    name: 'notes.append_line',
    description: 'Append one line of text to the end of a note.',
    domain: 'core',
    sideEffect: 'write',
    idempotent: false,
    input: z.strictObject({
      noteId,
      line: z
        .string()
        .min(1)
        .max(2_000)
        .regex(/^[^\r\n]*$/, 'one line, without line breaks')
        .describe('The line to append'),
    }),
    async run(input, context) {
      const note = await notes.appendLine({
        workspaceId: context.workspaceId,
        noteId: input.noteId,
        line: input.line,
        idempotencyKey: context.idempotencyKey,
        at: context.clock.now(),
      });
      return okResult({ noteId: note.noteId, lines: note.body.split('\n').length });
    },
  });
}

function preview(note: Note) {
  const body = note.body.length > PREVIEW_CHARS ? `${note.body.slice(0, PREVIEW_CHARS)}…` : note.body;
  return { noteId: note.noteId, title: note.title, preview: body, updatedAt: note.updatedAt };
}
