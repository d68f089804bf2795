import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineTool, okResult, type ToolDefinition } from '@lomo/tools';
import type { ArtifactCommandService } from '@lomo/workspace';

/**
 * A stand-in for the workspace's document.write in scripted-model tests: one document per stage,
 * a new artefact version of this task that the stage's evidence names.
 */
export function stageTool(artifacts: ArtifactCommandService): ToolDefinition {
  return defineTool({
    name: 'stage.write',
    description: 'Write one stage of the brief as a document.',
    domain: 'core',
    sideEffect: 'write',
    idempotent: true,
    progress: 'artifact_version',
    input: z.strictObject({ title: z.string().min(1), text: z.string().min(1) }),
    async run(input, context) {
      const written = await artifacts.create(
        {
          artifactId: randomUUID(),
          kind: 'document',
          title: input.title,
          by: { kind: 'agent', taskId: context.taskId, callId: context.callId },
          taskId: context.taskId,
          content: { type: 'document', text: input.text },
        },
        {
          workspaceId: context.workspaceId,
          correlationId: context.callId,
          causationId: null,
          actor: { kind: 'agent' },
        },
      );
      return okResult({ artifactId: written.artifactId, version: written.version });
    },
  });
}
