import { traceId } from '@lomo/contracts';
import {
  defineTool,
  pendingResult,
  type JsonValue,
  type ToolContext,
  type ToolDefinition,
  type ToolDomain,
} from '@lomo/tools';
import type { z } from 'zod';
import type { MediaKind } from '../provider/generation-provider.port';
import type { GenerationRequestInput, GenerationRequests } from '../service/generation-requests.port';
import { pendingJobNote } from './job-note';

/** What one call orders: the prompt, the options the provider reads, the reference artefacts. */
export interface MediaOrder {
  prompt: string;
  /** Undefined entries are dropped: the job's event only holds JSON. */
  options: Record<string, JsonValue | undefined>;
  referenceArtifactIds?: readonly string[];
}

export interface MediaToolSpec<Input> {
  name: string;
  description: string;
  domain: ToolDomain;
  kind: MediaKind;
  input: z.ZodType<Input>;
  order(input: Input): MediaOrder;
}

/**
 * A media tool: paid, async, idempotent by call id (the service keys the job by it, so a retried
 * or taken-over call joins the job it already ordered). Its run only records the order and
 * answers `pending`; the money gate is the account ledger (authorizedBy 'ledger'), which reserves
 * a quote within the limits or opens its own approval checkpoint with the quote.
 */
export function mediaTool<Input>(requests: GenerationRequests, spec: MediaToolSpec<Input>): ToolDefinition<Input> {
  return defineTool({
    name: spec.name,
    description: spec.description,
    domain: spec.domain,
    sideEffect: 'paid',
    progress: 'job_submitted',
    authorizedBy: 'ledger',
    idempotent: true,
    async: true,
    input: spec.input,
    async run(input, context) {
      const job = await requests.request(requestOf(spec, spec.order(input), context));
      return pendingResult(pendingJobNote(job));
    },
  });
}

function requestOf<Input>(spec: MediaToolSpec<Input>, order: MediaOrder, context: ToolContext): GenerationRequestInput {
  const options = Object.fromEntries(Object.entries(order.options).filter(([, v]) => v !== undefined));
  const refs = order.referenceArtifactIds ?? [];
  return {
    workspaceId: context.workspaceId,
    taskId: context.taskId,
    turnId: context.turnId,
    callId: context.callId,
    correlationId: correlationOf(context),
    kind: spec.kind,
    operation: spec.name,
    prompt: order.prompt,
    options,
    ...(refs.length > 0 ? { referenceArtifactIds: [...refs] } : {}),
  };
}

/** A malformed trace id would make the job's events invalid; the turn id always fits. */
function correlationOf(context: ToolContext): string {
  const id = context.correlationId;
  return id !== undefined && traceId.safeParse(id).success ? id : context.turnId;
}
