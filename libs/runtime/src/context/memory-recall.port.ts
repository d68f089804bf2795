/**
 * Memory recall for a step's tail (article §7.1: "根據目前事項的目標和權限，選擇需要提供給模型的
 * 記憶"): a bounded set of the person's standing memories that fit the task, found by keyword and
 * vector retrieval. Implemented in @lomo/memory; the runtime only asks, with a deadline, and a
 * recall that fails or times out is skipped and recorded in the step (ModelStepCommitted.context.memory).
 */
export const MEMORY_RECALL = Symbol('MEMORY_RECALL');

export interface RecallQuery {
  workspaceId: string;
  /** The person the task works for: only their memories are recalled, even in a shared workspace. */
  userId: string;
  /** Task-local memories of this task are eligible; those of other tasks never are. */
  taskId: string;
  /** What the step is about (goal, brief, the claimed messages). */
  text: string;
  limit: number;
  /** For temporal questions: the point in time the answer should hold for; default now. */
  at?: string;
  signal?: AbortSignal;
}

export interface RecalledMemory {
  memoryId: string;
  versionId: string;
  subject: string;
  text: string;
  origin: 'explicit' | 'inferred';
  scope: 'long_term' | 'task';
  validFrom: string;
  validTo: string | null;
  score: number;
}

export interface MemoryRecall {
  recall(query: RecallQuery): Promise<RecalledMemory[]>;
}

/** No memory configured: nothing is recalled (the step records `disabled`). */
export class NoMemoryRecall implements MemoryRecall {
  recall(): Promise<RecalledMemory[]> {
    return Promise.resolve([]);
  }
}
