import { z } from 'zod';
import { ToolRegistrationError } from '../tool-errors';
import type { ToolDefinition } from '../tool.port';

/**
 * The shape of @lomo/llm's ToolSpec, restated so the tools lib does not depend on the model lib;
 * the two are structurally identical, so either side accepts the other.
 */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * The model-facing description of a tool. Computed once at registration: the JSON Schema of a
 * tool never changes while the process runs, and byte-identical specs keep prompts cacheable.
 */
export function toolSpecOf(definition: ToolDefinition): ToolSpec {
  let schema: Record<string, unknown>;
  try {
    // 'input': fields with defaults are optional for the model, as they are for the parser.
    schema = z.toJSONSchema(definition.input, { io: 'input' }) as Record<string, unknown>;
  } catch (e) {
    throw new ToolRegistrationError(
      definition.name,
      `its input schema has no JSON Schema form (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  if (schema.type !== 'object') {
    // Function-calling APIs take an object of named arguments, nothing else.
    throw new ToolRegistrationError(definition.name, 'its input schema must be an object');
  }
  // The dialect marker means nothing to a model and only costs tokens.
  const { $schema: _dialect, ...parameters } = schema;
  return { name: definition.name, description: definition.description, parameters };
}
