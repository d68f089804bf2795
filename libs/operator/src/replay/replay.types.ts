import type { ModelProvider } from '@lomo/llm';
import type { Purged } from '../inspect/inspection.types';
import type { PromptPatch } from './prompt-patch';

export interface ReplayOptions {
  /** Only this step of the turn (1-based); absent: every committed step. */
  step?: number;
  /** 'recorded': the stored replies and tool-call intents; else the model to ask. */
  model: 'recorded' | ModelProvider;
  /** Rewrites of the rebuilt prompt, applied before the model is asked. */
  promptPatch?: PromptPatch;
}

/** Whether the live context assembler, run on the copy, rebuilt the prompt the step archived. */
export type ContextCheck =
  | { status: 'reproduced'; hash: string }
  | {
      status: 'context_drift';
      rebuiltHash: string;
      storedHash: string;
      /** The first layer (in prompt order) whose messages differ (the prefix: or its tool definitions). */
      firstDifferingLayer: string;
    }
  /** The archived prompt (or a blob it needs) is gone: nothing to compare with. */
  | { status: 'stored_prompt_missing'; rebuiltHash: string };

/** A tool-call intent as compared: the tool and its arguments in canonical JSON. */
export interface ComparedCall {
  tool: string;
  arguments: unknown;
}

/**
 * One call of the step, recorded, replayed or both. `reused`: the replay made the same call (tool
 * and arguments) and the recorded outcome stands for it; `stubbed`: the replay made a call the
 * record has no result for, so nothing ran and its branch stops; `not_called`: recorded, not
 * made by the replay; `not_replayed`: recorded in a step after the branch stopped.
 */
export interface CallDiff {
  /** The recorded call's id (`{turnId}:{step}:{index}`); null for a call only the replay made. */
  callId: string | null;
  tool: string;
  recorded: unknown | null;
  replayed: unknown | null;
  status: 'reused' | 'stubbed' | 'not_called' | 'not_replayed';
  /** The recorded outcome reused: the ToolCallCompleted result (a job id for a generation call). */
  outcome?: RecordedOutcome;
}

export type RecordedOutcome =
  | { status: 'ok' | 'error'; result: unknown; job?: RecordedJob }
  | { status: 'unknown'; reason: string | null; job?: RecordedJob };

/** The paid generation job a call started, as its stream and the account recorded it. */
export interface RecordedJob {
  jobId: string;
  status: string;
  chargedMinor: number;
  refundedMinor: number;
  currency: string | null;
}

export interface ReplayedStep {
  step: number;
  /**
   * `not_replayed`: an earlier step diverged, so this one's context no longer follows from the
   * replay. `withheld`: the rebuilt prompt still quoted forgotten text, so no model was asked.
   * `model_failed`: the model asked gave no answer (`error`); nothing after it is replayed.
   */
  status: 'replayed' | 'not_replayed' | 'withheld' | 'model_failed';
  /** The model's typed error, for `model_failed`. */
  error?: { code: string; message: string };
  context: ContextCheck | null;
  /**
   * The stored prompt depended on content forgotten since (an excluded step, or built while a
   * forgotten message was in context): it is never shown, and the rebuilt prompt leaves it out.
   */
  forgotten: { flagged: boolean; reason: string | null };
  /**
   * A person's or the router's writes to the task between the step's start and its commit: taken
   * as landed while the model was thinking, so left out of the state its prompt is rebuilt from.
   */
  concurrent: Array<{ type: string; at: string }>;
  /** Rewrites of the prompt patch that changed this step's prompt. */
  patched: string[];
  reply: { recorded: string | Purged; replayed: string | Purged | null; equal: boolean };
  toolCalls: CallDiff[];
  diverged: boolean;
}

export interface ReplayReport {
  turnId: string;
  taskId: string;
  workspaceId: string;
  model: string;
  steps: ReplayedStep[];
  /** The first step whose decisions differ from the record; null when none did. */
  divergedAt: number | null;
  /** The first step whose rebuilt prompt differs from the stored one; null when none did. */
  driftAt: number | null;
}
