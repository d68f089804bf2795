import { z } from 'zod';
import { handleCommand, metadataOf } from '@lomo/command-handling';
import { streams } from '@lomo/contracts';
import { DomainError, taskDecider, taskEventTypes } from '@lomo/domain';
import { defineTool, errorResult, okResult, type ToolDefinition } from '@lomo/tools';
import { requireTaskIn } from '../commands/require-task';
import type { PlanToolDeps } from './plan-tools';

const LOADABLE = ['image', 'video', 'audio', '3d', 'document', 'asset', 'flow'] as const;

/**
 * `tools.load`: the model asks for tool domains it needs (article §6.2). The request is recorded
 * on the task (ToolDomainsLoaded) and the domains' tools are offered from the next step on, until
 * a compression boundary unloads them. Loading only offers tools: every call is still checked
 * against the registry and authorized on its own.
 */
export function loadDomainsTool(deps: PlanToolDeps): ToolDefinition<{ domains: Array<(typeof LOADABLE)[number]> }> {
  return defineTool({
    name: 'tools.load',
    description:
      'Make the tools of one or more domains callable from your next step on: image, video, audio, 3d (media generation), document (write, read and edit documents), asset (find, reference or delete artefacts), flow (workflows). The task state lists the domains you can call now.',
    domain: 'core',
    sideEffect: 'write',
    idempotent: true,
    input: z.strictObject({ domains: z.array(z.enum(LOADABLE)).min(1).max(LOADABLE.length) }),
    async run(input, context) {
      try {
        const result = await handleCommand(
          deps.store,
          streams.task(context.taskId),
          taskDecider,
          { type: 'LoadToolDomains', domains: input.domains, turnId: context.turnId, step: context.step },
          {
            eventTypes: taskEventTypes,
            ids: deps.ids,
            guard: requireTaskIn(context.taskId, context.workspaceId),
            metadata: metadataOf({
              workspaceId: context.workspaceId,
              actor: { kind: 'agent' },
              fallbackCorrelationId: context.callId,
            }),
          },
        );
        return okResult({ loaded: input.domains, changed: result.changed, offeredFrom: 'your next step' });
      } catch (error) {
        if (error instanceof DomainError) return errorResult(error.code, error.message, false);
        throw error;
      }
    },
  });
}
