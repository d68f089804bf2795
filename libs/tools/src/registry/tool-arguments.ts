import type { z } from 'zod';
import { zodIssues } from '@lomo/contracts';
import { errorResult } from '../tool-results';
import { ToolErrorCodes } from '../tool-errors';
import type { ToolResult } from '../tool.port';

export type ParsedArguments<Input> = { ok: true; input: Input } | { ok: false; result: ToolResult };

/**
 * Models send arguments as JSON text (sometimes empty for a tool without parameters); tests and
 * the offline policy may pass objects. Either way a mistake becomes an error the model can read
 * and correct, never an exception.
 */
export function parseToolArguments<Input>(
  toolName: string,
  schema: z.ZodType<Input>,
  raw: string | unknown,
): ParsedArguments<Input> {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') value = {};
    else {
      try {
        value = JSON.parse(raw);
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        return invalid(`Arguments for ${toolName} are not valid JSON (${reason}). Send one JSON object.`);
      }
    }
  } else if (raw === undefined || raw === null) {
    value = {};
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, input: parsed.data };
  const issues = zodIssues(parsed.error)
    .map((i) => `${i.path}: ${i.message}`)
    .join('; ');
  return invalid(`Invalid arguments for ${toolName}: ${issues}`);
}

const invalid = (message: string): { ok: false; result: ToolResult } => ({
  ok: false,
  result: errorResult(ToolErrorCodes.invalidArguments, message, false),
});
