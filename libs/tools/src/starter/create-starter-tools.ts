import type { ToolDefinition, ToolResult } from '../tool.port';
import { exportDocumentTool, type ExportSubmitter } from './export/export-document-tool';
import { taskHistoryTool, type HistoryReader } from './history/task-history-tool';
import { appendLineTool, createNoteTool, deleteNoteTool, listNotesTool } from './notes/notes-tools';
import type { NotesStore } from './notes/notes-store.port';

export interface StarterToolDeps {
  notes: NotesStore;
  /** The event store, or anything that reads streams like it. */
  history: HistoryReader;
  /** The ExportJobRunner, started by whoever owns its lifecycle. */
  exports: ExportSubmitter;
  /**
   * Wraps each tool, told whether a result stands for a real effect (a deduplicated repeat does
   * not). Production passes none; the drills pass one that records every effect per idempotency key.
   */
  decorate?: ToolDecorator;
}

export type ToolDecorator = <Input>(
  tool: ToolDefinition<Input>,
  traits: { isEffect?: (result: ToolResult) => boolean },
) => ToolDefinition<Input>;

/** A deduplicated create is no new effect. */
const createdSomething = (result: ToolResult) =>
  result.status === 'ok' &&
  typeof result.output === 'object' &&
  result.output !== null &&
  !Array.isArray(result.output) &&
  result.output.created === true;

/**
 * The starter tools: notes (create, list, delete, append a line), the task's history and a
 * simulated long export. Small, but each really does something, so the offline policy and the
 * runtime's fault tests exercise real effects.
 */
export function createStarterTools(deps: StarterToolDeps): ToolDefinition[] {
  const track = <Input>(tool: ToolDefinition<Input>, isEffect?: (result: ToolResult) => boolean) =>
    deps.decorate ? deps.decorate(tool, { isEffect }) : tool;
  return [
    track(createNoteTool(deps.notes), createdSomething),
    track(listNotesTool(deps.notes)),
    track(deleteNoteTool(deps.notes)),
    track(appendLineTool(deps.notes)),
    track(taskHistoryTool(deps.history)),
    // Its effect (the stored export) happens later, in the runner, not in this call.
    exportDocumentTool(deps.exports),
  ];
}
