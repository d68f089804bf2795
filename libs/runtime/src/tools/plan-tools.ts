import { z } from 'zod';
import { isLomoError, taskEvents, type IdGenerator } from '@lomo/contracts';
import { DomainError } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import {
  defineTool,
  errorResult,
  errorResultFromThrown,
  okResult,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
} from '@lomo/tools';
import {
  changeChecklistItem,
  EvidenceRefusedError,
  planChecklist,
  updateBrief,
  type PlanAuthor,
} from '../commands/plan-commands';
import { loadDomainsTool } from './load-domains-tool';

export interface PlanToolDeps {
  store: EventStore;
  ids: IdGenerator;
}

const itemId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/)
  .describe('Short stable id, lower case (e.g. "script", "shot-2"); keep ids when re-planning');

const agent = (context: ToolContext): PlanAuthor => ({ actor: { kind: 'agent' }, callId: context.callId });
const target = (context: ToolContext) => ({
  workspaceId: context.workspaceId,
  taskId: context.taskId,
  by: agent(context),
});

/** Refusals the model can act on keep their code; anything else is the registry's TOOL_FAILED. */
function refused(error: unknown): ToolResult {
  if (error instanceof EvidenceRefusedError) return errorResult(error.code, error.message, false);
  if (error instanceof DomainError) return errorResult(error.code, error.message, false);
  if (isLomoError(error)) return errorResultFromThrown(error);
  throw error;
}

/**
 * The agent's side of the task's plan: the brief (the approved direction) and the execution
 * checklist the runtime's continuation decision reads (libs/runtime/src/process/plan-continuation.ts).
 * Planning is not progress; an item is done only with evidence the streams hold.
 */
export function createPlanTools(deps: PlanToolDeps): ToolDefinition[] {
  return [
    loadDomainsTool(deps) as ToolDefinition,
    defineTool({
      name: 'brief.update',
      description:
        'Record the approved direction of this task (what the person asked for and agreed to), replacing the previous brief.',
      domain: 'core',
      sideEffect: 'write',
      idempotent: true,
      input: z.strictObject({
        brief: z.string().min(1).max(20_000).describe('The whole brief, in the person’s language'),
      }),
      async run(input, context) {
        try {
          const { changed } = await updateBrief(deps, { ...target(context), brief: input.brief });
          return okResult({ changed });
        } catch (error) {
          return refused(error);
        }
      },
    }),
    defineTool({
      name: 'checklist.plan',
      description:
        'Plan (or re-plan after a change of direction) the execution checklist: the stages to deliver, in order, with dependencies. Items keeping their id keep their status and evidence. The runtime continues by itself while items are left, so plan what you will actually do.',
      domain: 'core',
      sideEffect: 'write',
      idempotent: true,
      input: z.strictObject({
        items: z
          .array(
            z.strictObject({
              itemId,
              title: z.string().min(1).max(500),
              dependsOn: z.array(itemId).max(50).default([]).describe('Items that must be done (or skipped) first'),
              needsConfirmation: z
                .boolean()
                .optional()
                .describe(
                  'The person reviews this stage (a direction, a storyboard, a final shot) before anything after it: once you mark it done, the runtime shows them a review card and waits',
                ),
              output: taskEvents.checklistItemOutput
                .optional()
                .describe(
                  'What the item delivers, which its evidence must match: {kind:"artifact"} (a document or other artefact version), {kind:"media", media:"image"|"video"|"3d"|"audio", count} (that many paid generations: the runtime quotes them to the person as the plan budget), {kind:"decision"} (the person chooses on a review card)',
                ),
            }),
          )
          .min(1)
          .max(100),
      }),
      async run(input, context) {
        try {
          const { changed } = await planChecklist(deps, { ...target(context), items: input.items });
          return okResult({ changed, items: input.items.map((i) => i.itemId) });
        } catch (error) {
          return refused(error);
        }
      },
    }),
    defineTool({
      name: 'checklist.update',
      description:
        'Change one checklist item: in_progress, blocked (say why in the note), skipped, or done. Done needs evidence from this task that matches what the item delivers: the artefact version you wrote ({kind:"artifact_version", artifactId, version}), completed jobs ({kind:"job", jobId} or {kind:"jobs", jobIds} for a media item of several) or the person\'s approved review card about this item ({kind:"review", checkpointId}).',
      domain: 'core',
      sideEffect: 'write',
      idempotent: true,
      input: z.strictObject({
        itemId,
        status: z.enum(['pending', 'in_progress', 'done', 'blocked', 'skipped']),
        note: z.string().min(1).max(2000).optional(),
        evidence: taskEvents.checklistEvidence.optional(),
      }),
      async run(input, context) {
        try {
          const { changed } = await changeChecklistItem(deps, {
            ...target(context),
            itemId: input.itemId,
            status: input.status,
            ...(input.note !== undefined ? { note: input.note } : {}),
            ...(input.evidence !== undefined ? { evidence: input.evidence } : {}),
          });
          return okResult({ changed, itemId: input.itemId, status: input.status });
        } catch (error) {
          return refused(error);
        }
      },
    }),
  ];
}
