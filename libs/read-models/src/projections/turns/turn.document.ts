import type { EventDataMap } from '@lomo/contracts';
import type { JsonValue } from '../../document-store/document-store.port';
import type { ProjectionDocument } from '../engine/projection-definition';

type Data<T extends keyof EventDataMap> = EventDataMap[T];

export type TurnStatus = 'queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';
export type BlobRef = { hash: string; bytes: number; contentType: string };
export type TypedError = { code: string; message: string; retriable: boolean };
export type StepContext = NonNullable<Data<'ModelStepCommitted'>['context']>;

export type TurnStep = {
  step: number;
  reply: string;
  callIds: string[];
  consumedItemIds: string[];
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number | null };
  finishReason: Data<'ModelStepCommitted'>['finishReason'];
  committedAt: string;
  /** What the model saw, archived in the BlobStore (read back by the API's `step.prompt`). */
  promptRef: BlobRef;
  /** How the prompt was built and what it cost; null on steps committed before context accounting. */
  context: StepContext | null;
};

/**
 * One entry of the tool-call ledger. `intended`: committed by a step, not started; `started`:
 * no result yet (running, or lost with a worker); `unknown`: a non-idempotent call whose result
 * was lost (the model was told); `completed`: `outcome` ok or error, with its result or error.
 */
export type TurnToolCall = {
  callId: string;
  tool: string;
  step: number;
  index: number;
  arguments: JsonValue;
  status: 'intended' | 'started' | 'completed' | 'unknown';
  attempts: number;
  outcome: 'ok' | 'error' | null;
  result: JsonValue | null;
  resultRef: BlobRef | null;
  error: TypedError | null;
  unknownReason: Data<'ToolCallOutcomeUnknown'>['reason'] | null;
  /** The result arrived after the turn ended (recorded, changes nothing). */
  completedAfterClose: boolean;
};

/** `turns`: one document per turn, `_id` = turnId, every field from `turn-<turnId>`. */
export type TurnDocument = ProjectionDocument & {
  taskId: string | null;
  reason: Data<'TurnStarted'>['reason'] | null;
  status: TurnStatus | null;
  /** Generation of the latest lease (0 before the first): rises on every takeover. */
  generation: number;
  lease: { workerId: string; generation: number; leaseUntil: string } | null;
  steps: TurnStep[];
  /** The ledger, keyed by callId (`{turnId}:{step}:{index}`). */
  calls: { [callId: string]: TurnToolCall };
  waitingOn: JsonValue | null;
  summary: string | null;
  error: TypedError | null;
  cancelled: { by: JsonValue; reason: Data<'TurnCancelled'>['reason'] } | null;
  startedAt: string | null;
  lastActivityAt: string | null;
  endedAt: string | null;
};
