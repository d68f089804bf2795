import { z } from 'zod';
import { traceId } from '@lomo/contracts';
import { pendingResult } from '../../tool-results';
import { defineTool, type ToolDefinition } from '../../tool.port';
import type { ExportFormat, ExportJob, ExportRequest } from './export-job.port';

/** The one thing the tool needs from the runner, so the runtime's tests can stand in for it. */
export interface ExportSubmitter {
  submit(request: ExportRequest): Promise<ExportJob>;
}

interface ExportInput {
  title: string;
  format: ExportFormat;
  content: string;
}

/**
 * export.document: async. It only records the job and answers `pending`; the runner appends the
 * call's completion to the turn stream later and wakes the task. Idempotent: the job is keyed by
 * the call's idempotency key, so a retried call joins the job already running.
 */
export function exportDocumentTool(exports: ExportSubmitter): ToolDefinition<ExportInput> {
  return defineTool({
    name: 'export.document',
    description:
      "Export a document (markdown, plain text or HTML) as a file. Takes a while: the result arrives later as this call's result.",
    domain: 'document',
    sideEffect: 'write',
    idempotent: true,
    async: true,
    input: z.strictObject({
      title: z.string().trim().min(1).max(200).describe('Title of the document'),
      format: z.enum(['markdown', 'text', 'html']).default('markdown').describe('File format'),
      content: z.string().min(1).max(200_000).describe('Body of the document'),
    }),
    async run(input, context) {
      const correlationId = context.correlationId;
      const job = await exports.submit({
        workspaceId: context.workspaceId,
        taskId: context.taskId,
        turnId: context.turnId,
        callId: context.callId,
        idempotencyKey: context.idempotencyKey,
        // A malformed trace id would make the completion event invalid; the turn id always fits.
        correlationId:
          correlationId !== undefined && traceId.safeParse(correlationId).success ? correlationId : context.turnId,
        title: input.title,
        format: input.format,
        content: input.content,
      });
      return pendingResult(`export job ${job.jobId} is ${job.status}`);
    },
  });
}
