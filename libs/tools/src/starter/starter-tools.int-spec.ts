import { mkdtempSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStarterTools } from './create-starter-tools';
import { SqliteNotesStore } from './notes/sqlite-notes-store';
import { JsonlEffectSink, countEffectsByKey, readEffectLog, recordEffectsIn } from '../testing';
import type { ExportSubmitter } from './export/export-document-tool';
import { ToolRegistry } from '../registry/tool-registry';
import { makeToolContext } from '../testing/tool-context';
import type { ToolResult } from '../tool.port';

const unusedExports: ExportSubmitter = {
  submit: () => Promise.reject(new Error('export is not exercised in this suite')),
};

function outputOf(result: ToolResult): Record<string, unknown> {
  if (
    result.status !== 'ok' ||
    typeof result.output !== 'object' ||
    result.output === null ||
    Array.isArray(result.output)
  ) {
    throw new Error(`expected an ok object result, got ${JSON.stringify(result)}`);
  }
  return result.output;
}

describe('starter notes tools through the registry', () => {
  let dir: string;
  let notes: SqliteNotesStore;
  let registry: ToolRegistry;
  let effectFile: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lomo-starter-'));
    notes = SqliteNotesStore.open({ filename: join(dir, 'tools.sqlite') });
    effectFile = join(dir, 'effects.jsonl');
    registry = new ToolRegistry(
      createStarterTools({
        notes,
        history: { readStream: async () => [] },
        exports: unusedExports,
        decorate: recordEffectsIn(new JsonlEffectSink(effectFile)),
      }),
    );
  });

  afterEach(async () => {
    await notes.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('declares the starter set with its domains, side-effect classes and idempotency', () => {
    const declared = registry.list().map((t) => [t.name, t.domain, t.sideEffect, t.idempotent, t.async === true]);
    expect(declared).toEqual([
      ['notes.append_line', 'core', 'write', false, false],
      ['notes.create', 'core', 'write', true, false],
      ['notes.delete', 'core', 'irreversible', false, false],
      ['notes.list', 'core', 'read', true, false],
      ['task.history', 'core', 'read', true, false],
      ['export.document', 'document', 'write', true, true],
    ]);
    expect(registry.specs().map((s) => s.name)).not.toContain('export.document');
    expect(registry.specs(['document']).map((s) => s.name)).toContain('export.document');
  });

  it('creates a note once when the same call runs twice, and lists it', async () => {
    const context = makeToolContext();
    const first = outputOf(await registry.invoke('notes.create', '{"title":"Moodboard","body":"red, teal"}', context));
    const retry = outputOf(await registry.invoke('notes.create', '{"title":"Moodboard","body":"red, teal"}', context));
    expect(first).toMatchObject({ title: 'Moodboard', created: true });
    expect(retry).toEqual({ ...first, created: false });

    const listed = outputOf(await registry.invoke('notes.list', '{}', makeToolContext({ index: 1 })));
    expect(listed).toEqual({
      count: 1,
      notes: [
        { noteId: first.noteId, title: 'Moodboard', preview: 'red, teal', updatedAt: '2026-11-30T00:00:00.000Z' },
      ],
    });
    expect(countEffectsByKey(effectFile)).toEqual(new Map([[context.callId, 1]]));
  });

  it('appends a line per call (not idempotent) and counts each effect in the side file', async () => {
    const created = outputOf(await registry.invoke('notes.create', { title: 'Log' }, makeToolContext({ index: 0 })));
    const append = makeToolContext({ step: 2 });
    const args = JSON.stringify({ noteId: created.noteId, line: 'shot 1 done' });
    await registry.invoke('notes.append_line', args, append);
    const second = outputOf(await registry.invoke('notes.append_line', args, append));
    expect(second).toEqual({ noteId: created.noteId, lines: 2 });
    expect(countEffectsByKey(effectFile).get(append.callId)).toBe(2);
    expect((await notes.effects({ idempotencyKey: append.callId })).length).toBe(2);
  });

  it('deletes a note (the effect is recorded once) and reports a second delete as NOTE_NOT_FOUND', async () => {
    const created = outputOf(await registry.invoke('notes.create', { title: 'Old' }, makeToolContext()));
    const del = makeToolContext({ step: 3 });
    const deleted = await registry.invoke('notes.delete', { noteId: created.noteId }, del);
    expect(deleted).toEqual({ status: 'ok', output: { noteId: created.noteId, deleted: true } });
    const again = await registry.invoke('notes.delete', { noteId: created.noteId }, del);
    expect(again).toMatchObject({ status: 'error', error: { code: 'NOTE_NOT_FOUND', retriable: false } });
    expect(readEffectLog(effectFile).filter((l) => l.tool === 'notes.delete')).toHaveLength(1);
    expect((await notes.effects({ idempotencyKey: del.callId })).map((e) => e.outcome)).toEqual([
      'applied',
      'not_found',
    ]);
  });

  it('answers bad arguments with TOOL_INVALID_ARGUMENTS and changes nothing', async () => {
    const result = await registry.invoke(
      'notes.append_line',
      '{"noteId":"not-a-uuid","line":"a\\nb"}',
      makeToolContext(),
    );
    expect(result).toMatchObject({ status: 'error', error: { code: 'TOOL_INVALID_ARGUMENTS' } });
    if (result.status === 'error') {
      expect(result.error.message).toContain('noteId');
      expect(result.error.message).toContain('line');
    }
    expect(await notes.effects()).toEqual([]);
    expect(readEffectLog(effectFile)).toEqual([]);
  });

  it('records no effect line for reads', async () => {
    await registry.invoke('notes.list', '{}', makeToolContext());
    await registry.invoke('task.history', '{}', makeToolContext({ index: 1 }));
    expect(readEffectLog(effectFile)).toEqual([]);
  });

  it('skips a line torn by a crash when reading the side file', () => {
    appendFileSync(
      effectFile,
      '{"idempotencyKey":"k","tool":"t","at":"2026-01-01T00:00:00Z"}\n{"idempotencyKey":"k2","to',
    );
    expect(readEffectLog(effectFile)).toEqual([{ idempotencyKey: 'k', tool: 't', at: '2026-01-01T00:00:00Z' }]);
  });
});
