import type { z } from 'zod';
import type { Clock } from '@lomo/contracts';

/** Core tools are always offered; the others are offered on demand (DESIGN.md §6). */
export type ToolDomain = 'core' | 'image' | 'video' | 'audio' | '3d' | 'document' | 'asset' | 'flow';

/**
 * Canonical domain order. Tool specs follow it (core first), so asking for one more domain only
 * appends to the prompt's tool list and the cached prefix stays valid.
 */
export const TOOL_DOMAINS: readonly ToolDomain[] = [
  'core',
  'image',
  'video',
  'audio',
  '3d',
  'document',
  'asset',
  'flow',
];

/** Paid and irreversible calls need a recorded authorization before they run (DESIGN.md §5). */
export type SideEffectClass = 'read' | 'write' | 'paid' | 'irreversible';

export const SIDE_EFFECT_CLASSES: readonly SideEffectClass[] = ['read', 'write', 'paid', 'irreversible'];

/**
 * Who authorizes a paid or irreversible call before it runs.
 * - 'person' (the default): the runtime opens an approval checkpoint for the call id and runs the
 *   call only after a person approved exactly that call.
 * - 'ledger': only for 'paid' tools whose run merely records an order. The order's own service
 *   refuses to spend without a recorded approval of its quote or a reservation within the
 *   account's limits and budget (and opens its own checkpoint otherwise), so a runtime checkpoint
 *   would ask the person twice (DESIGN.md §5). Irreversible tools can never use it.
 */
export type CallAuthority = 'person' | 'ledger';

export const CALL_AUTHORITIES: readonly CallAuthority[] = ['person', 'ledger'];

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface ToolContext {
  workspaceId: string;
  taskId: string;
  turnId: string;
  step: number;
  callId: string;
  /** Equals the call id: the same call, retried or taken over, carries the same key. */
  idempotencyKey: string;
  /** Aborted when the task is stopped or the worker loses the turn. */
  signal: AbortSignal;
  clock: Clock;
  /**
   * The trace the call belongs to. Async tools store it so the completion they append later
   * stays in the same trace; without it they fall back to the turn id.
   */
  correlationId?: string;
}

/** Codes match the event contract's typedError (`/^[A-Z][A-Z0-9_]{1,63}$/`), messages stay under 4 000 characters. */
export interface ToolError {
  code: string;
  message: string;
  retriable: boolean;
}

export type ToolResult =
  | { status: 'ok'; output: JsonValue }
  | { status: 'error'; error: ToolError }
  /** Async tools: the work goes on elsewhere; its completion is appended to the turn stream later. */
  | { status: 'pending'; note?: string };

export type ToolProgress = 'artifact_version' | 'job_submitted';

export interface ToolDefinition<Input = unknown> {
  name: string;
  description: string;
  domain: ToolDomain;
  sideEffect: SideEffectClass;
  /** Safe to run again with the same idempotency key (the effect happens at most once). */
  idempotent: boolean;
  /** Async tools return `pending` and complete through the turn stream. */
  async?: boolean;
  /** Paid tools only: 'ledger' when the order's service holds the money gate (see CallAuthority). */
  authorizedBy?: CallAuthority;
  /**
   * What an ok result counts as for the runtime's continuation decision
   * (libs/runtime/src/process/plan-continuation.ts): a new artefact version, or a job ordered.
   * Absent: reading, planning and rewording are not progress.
   */
  progress?: ToolProgress;
  /**
   * Its ok output is one page of content that is already stored (result.read, artifact.read),
   * bounded by the tool's own page limit: the runtime records it inline whatever its size.
   * Stored by reference again, it would reach the model as a summary of a page, to page through.
   */
  returnsPage?: boolean;
  input: z.ZodType<Input>;
  run(input: Input, context: ToolContext): Promise<ToolResult>;
}

/** Keeps the input type inferred from the schema while checking the definition's shape. */
export const defineTool = <Input>(definition: ToolDefinition<Input>): ToolDefinition<Input> => definition;

export const TOOL_REGISTRY = Symbol('TOOL_REGISTRY');
