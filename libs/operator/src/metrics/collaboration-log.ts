import type { EventEnvelope } from '@lomo/contracts';

/**
 * What the collaboration metrics read: a workspace's events in global order (every stream:
 * main lines, tasks, turns, artefacts, generation jobs, memory), and the archived prompts by
 * reference. Metrics come from the log alone, never from a harness's own counters, so they can
 * be computed on any recorded workspace (a drill's, or a real one an operator exported).
 */
export interface CollaborationLog {
  events: readonly EventEnvelope[];
  /** The text of an archived prompt (null when purged or missing); only forgotten-reappearing reads it. */
  promptText?: (ref: unknown) => Promise<string | null>;
}

/**
 * The ground truth only a scenario knows: which task each person message was meant for, and
 * what the person asked to forget. Task names are the scenario's own (`posters`, `video`).
 */
export interface ScenarioTruth {
  /**
   * Per person message (by its clientMessageId, or its text when it has none): `new` opens the
   * task of that name, `task` means the task of that name already opened.
   */
  intendedTargets?: ReadonlyMap<string, { new: string } | { task: string }>;
  /** Texts the person asked to forget: none may appear in a prompt stored after the forgetting. */
  forgottenTexts?: readonly string[];
}

/** One occurrence a metric counted, with where to look in the log. */
export interface Finding {
  taskId: string | null;
  /** The event that shows it (its global position and type). */
  position: string;
  type: string;
  detail: string;
}

export interface CountedMetric {
  count: number;
  findings: Finding[];
}

export const finding = (e: EventEnvelope, taskId: string | null, detail: string): Finding => ({
  taskId,
  position: String(e.metadata.globalPosition),
  type: e.type,
  detail,
});

export const dataOf = <T>(e: EventEnvelope): T => e.data as T;

/** `task-<id>` → id; the same for turn, artifact and generation streams. */
export const idOf = (streamId: string, category: string): string | null =>
  streamId.startsWith(`${category}-`) ? streamId.slice(category.length + 1) : null;

/** Which task each turn belongs to (TurnOpened on the task's stream). */
export function turnTasks(events: readonly EventEnvelope[]): Map<string, string> {
  const tasks = new Map<string, string>();
  for (const e of events) {
    const taskId = idOf(e.metadata.streamId, 'task');
    if (e.type === 'TurnOpened' && taskId !== null) tasks.set(dataOf<{ turnId: string }>(e).turnId, taskId);
  }
  return tasks;
}

/** The task an event belongs to, where the log says so. */
export function taskOfEvent(e: EventEnvelope, turns: ReadonlyMap<string, string>): string | null {
  const task = idOf(e.metadata.streamId, 'task');
  if (task !== null) return task;
  const turn = idOf(e.metadata.streamId, 'turn');
  if (turn !== null) return turns.get(turn) ?? null;
  const data = e.data as { taskId?: unknown; by?: { taskId?: unknown } } | null;
  if (typeof data?.taskId === 'string') return data.taskId;
  if (typeof data?.by?.taskId === 'string') return data.by.taskId;
  return null;
}

/** Lower case, runs of space and punctuation folded: "Poster #1 " and "poster 1" are the same. */
export const normalized = (text: string): string =>
  text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[\p{P}\p{S}\s]+/gu, ' ')
    .trim();
