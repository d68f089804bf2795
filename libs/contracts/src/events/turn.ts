import { z } from 'zod';
import { callId, checkpointId, isoDateTime, itemId, taskId, toolName, turnId, uuid, workerId } from '../ids';
import { actorSchema } from '../envelope';
import { blobRef, jsonValue, typedError, wakeReason } from './shared';

const generation = z.number().int().min(1);
const step = z.number().int().min(1);

export const TurnStarted = z.strictObject({ turnId, taskId, reason: wakeReason });

export const TurnLeased = z.strictObject({ workerId, generation, leaseUntil: isoDateTime });

export const TurnLeaseRenewed = z.strictObject({ workerId, generation, leaseUntil: isoDateTime });

export const toolCallIntent = z.strictObject({
  callId,
  tool: toolName,
  arguments: jsonValue,
});

export const tokenUsage = z.strictObject({
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  cachedInputTokens: z.number().int().min(0).optional(),
});

/** The context layers in their fixed order (libs/runtime/src/context, article §6.1). */
export const contextLayer = z.enum(['prefix', 'history', 'recent', 'tail', 'input']);
export const toolDomain = z.enum(['core', 'image', 'video', 'audio', '3d', 'document', 'asset', 'flow']);

/**
 * What one step's prompt was made of and cost: tokens per layer, the cache-eligible prefix (system
 * rules, the profile snapshot, the tool definitions sent) by hash and length and why it changed
 * since the task's previous step, the tool strategy and the domains the model could call, the
 * history segments shown, the budget the prompt was kept under.
 */
export const stepContext = z.strictObject({
  layers: z
    .array(z.strictObject({ layer: contextLayer, tokens: z.number().int().min(0), messages: z.number().int().min(0) }))
    .max(5),
  prefix: z.strictObject({
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    tokens: z.number().int().min(0),
    /** Null when it is byte-identical to the previous step's. */
    changed: z.enum(['first_step', 'profile_version', 'tool_set', 'rules']).nullable(),
    profileVersion: z.number().int().min(0).nullable(),
  }),
  tools: z.strictObject({
    strategy: z.enum(['dynamic', 'masked']),
    /** The domains whose tools the model could call at this step; a call to another is refused. */
    domains: z.array(toolDomain).max(8),
    /** Tool definitions sent (all of them with `masked`, the visible ones with `dynamic`). */
    sent: z.number().int().min(0),
  }),
  segments: z.array(uuid).max(1000),
  budgetTokens: z.number().int().min(0),
  promptTokens: z.number().int().min(0),
  /**
   * Memory recall for this step (libs/memory): the versions shown in the tail, or why none were.
   * A recall that timed out or failed is skipped and the step goes on (article §7.4).
   */
  memory: z
    .strictObject({
      status: z.enum(['recalled', 'none', 'timeout', 'failed', 'disabled']),
      versionIds: z.array(uuid).max(100),
      error: z.string().max(300).optional(),
    })
    .optional(),
});

export const ModelStepCommitted = z.strictObject({
  step,
  reply: z.string().max(100_000),
  toolCallIntents: z.array(toolCallIntent).max(64),
  consumedItemIds: z.array(itemId).max(100),
  usage: tokenUsage,
  /** What the model saw, kept in the BlobStore. */
  promptRef: blobRef,
  finishReason: z.enum(['stop', 'tool_calls', 'length', 'content_filter']),
  /** How the prompt was built (absent on steps committed before context accounting). */
  context: stepContext.optional(),
});

export const ToolCallStarted = z.strictObject({
  callId,
  tool: toolName,
  /** Equals the call id: the key an idempotent tool dedupes on. */
  idempotencyKey: callId,
  attempt: z.number().int().min(1),
});

export const ToolCallCompleted = z
  .strictObject({
    callId,
    status: z.enum(['ok', 'error']),
    /** Small results inline; large ones by reference. */
    result: jsonValue.optional(),
    resultRef: blobRef.optional(),
    error: typedError.optional(),
  })
  .refine((d) => (d.status === 'error') === (d.error !== undefined), 'an error result carries its error, and only it');

export const ToolCallOutcomeUnknown = z.strictObject({
  callId,
  reason: z.enum(['started_without_result_not_idempotent', 'worker_lost']),
});

export const TurnWaiting = z.strictObject({
  on: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('jobs'), jobIds: z.array(uuid).min(1).max(64) }),
    z.strictObject({ kind: z.literal('checkpoint'), checkpointId }),
    z.strictObject({ kind: z.literal('calls'), callIds: z.array(callId).min(1).max(64) }),
  ]),
});

export const TurnResumed = z.strictObject({ reason: wakeReason });

export const TurnCompleted = z.strictObject({
  steps: z.number().int().min(0),
  summary: z.string().max(20_000).optional(),
});

export const TurnFailed = z.strictObject({ error: typedError });

export const TurnCancelled = z.strictObject({
  by: actorSchema,
  reason: z.enum(['task_stopped', 'task_paused', 'superseded', 'operator']),
});
