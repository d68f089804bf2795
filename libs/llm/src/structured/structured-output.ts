import { z } from 'zod';
import { ModelBadRequestError, ModelInvalidOutputError } from '../model-errors';
import type {
  ChatMessage,
  CompletionRequest,
  ModelProvider,
  StructuredOutputFormat,
  TokenUsage,
} from '../model-provider.port';

/**
 * Structured output: a zod schema becomes the JSON Schema a model must answer with (OpenAI
 * strict mode: every property required, `additionalProperties: false`, root an object), and the
 * answer is validated with the same zod schema. Optional properties cannot be expressed in strict
 * mode, so answer schemas use `.nullable()` instead (see libs/contracts/src/routing/routing-prompt.ts);
 * a schema strict mode cannot express is refused here, when the format is built, not by the
 * vendor on the first call.
 */

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type JsonSchema = Record<string, unknown>;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function strictProblems(node: unknown, path: string, problems: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => strictProblems(item, `${path}[${i}]`, problems));
    return;
  }
  if (!isObject(node)) return;
  const type = node.type;
  const isObjectType = type === 'object' || (Array.isArray(type) && type.includes('object'));
  if (isObjectType || 'properties' in node) {
    const properties = isObject(node.properties) ? Object.keys(node.properties) : [];
    const required = Array.isArray(node.required) ? (node.required as unknown[]) : [];
    const missing = properties.filter((p) => !required.includes(p));
    if (missing.length > 0) {
      problems.push(`${path || '(root)'}: optional properties [${missing.join(', ')}] (use .nullable())`);
    }
    if (node.additionalProperties !== false) {
      problems.push(`${path || '(root)'}: additional properties must be false (no records or catchall)`);
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isObject(value)) {
      for (const [name, child] of Object.entries(value)) strictProblems(child, `${path}.${name}`, problems);
    } else if (isObject(value) || Array.isArray(value)) {
      strictProblems(value, `${path}${key === 'items' ? '[]' : `/${key}`}`, problems);
    }
  }
}

/**
 * The strict JSON Schema of `schema`, named `name` (the vendor's schema name: letters, digits,
 * `_` and `-`, up to 64). Throws MODEL_BAD_REQUEST when strict mode cannot express the schema.
 */
export function structuredOutput(name: string, schema: z.ZodType): StructuredOutputFormat {
  if (!NAME.test(name)) throw new ModelBadRequestError(`structured output name "${name}" must match ${NAME}`);
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { target: 'draft-7', unrepresentable: 'throw' }) as JsonSchema;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ModelBadRequestError(`structured output "${name}" has no JSON Schema: ${message}`, { name });
  }
  // The vendor wants the schema itself, not a document declaring its dialect.
  delete json.$schema;
  const problems: string[] = [];
  if (json.type !== 'object') problems.push('(root): must be an object');
  strictProblems(json, '', problems);
  if (problems.length > 0) {
    throw new ModelBadRequestError(`structured output "${name}" cannot be strict: ${problems.join('; ')}`, {
      name,
      problems,
    });
  }
  return { name, schema: json };
}

export interface StructuredSpec<T> {
  name: string;
  schema: z.ZodType<T>;
}

export interface StructuredResult<T> {
  value: T;
  /** Model calls made, 1 or 2 (each may itself have been retried by the adapter on a transient error). */
  attempts: number;
  /** Summed over the attempts. */
  usage: TokenUsage;
  model: string;
}

export interface CompleteStructuredOptions {
  /** Further asks after an invalid answer; default 1. */
  retries?: number;
}

type Check<T> = { ok: true; value: T } | { ok: false; problem: string };

function check<T>(text: string, schema: z.ZodType<T>): Check<T> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const result = schema.safeParse(parsed);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, problem: `does not match the schema (${issues.join('; ')})` };
}

const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => {
  const cached = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...(a.cachedInputTokens !== undefined || b.cachedInputTokens !== undefined ? { cachedInputTokens: cached } : {}),
  };
};

const MAX_ECHO = 500;

// The router asks with the same schema for every message; build its JSON Schema once per name.
const formats = new WeakMap<z.ZodType, Map<string, StructuredOutputFormat>>();
function cachedFormat<T>(spec: StructuredSpec<T>): StructuredOutputFormat {
  let byName = formats.get(spec.schema);
  if (!byName) formats.set(spec.schema, (byName = new Map()));
  let format = byName.get(spec.name);
  if (!format) byName.set(spec.name, (format = structuredOutput(spec.name, spec.schema)));
  return format;
}

/**
 * One structured answer: sends `responseFormat`, parses the text as JSON and validates it with
 * the zod schema. An invalid answer is asked again (`retries` times, default once) with the
 * previous answer and what was wrong with it appended; still invalid → MODEL_INVALID_OUTPUT
 * (attempts and summed usage in its details). Transport errors (timeouts, unavailability) are the
 * adapter's ModelErrors, already retried there, and pass through unchanged.
 */
export async function completeStructured<T>(
  provider: ModelProvider,
  request: Omit<CompletionRequest, 'responseFormat'>,
  spec: StructuredSpec<T>,
  options: CompleteStructuredOptions = {},
): Promise<StructuredResult<T>> {
  const responseFormat = cachedFormat(spec);
  const maxAttempts = 1 + Math.max(0, options.retries ?? 1);
  let messages: readonly ChatMessage[] = request.messages;
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let lastProblem = '';
  let model = provider.name;
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    // Structured answers are text: no tools are offered beside a response format.
    const result = await provider.complete({ ...request, tools: [], toolChoice: undefined, messages, responseFormat });
    usage = addUsage(usage, result.usage);
    model = result.model;
    const checked = check(result.text, spec.schema);
    if (checked.ok) return { value: checked.value, attempts: attempt, usage, model };
    lastProblem = checked.problem;
    const echoed = result.text.length > MAX_ECHO ? `${result.text.slice(0, MAX_ECHO)}…` : result.text;
    messages = [
      ...messages,
      { role: 'assistant', content: echoed },
      {
        role: 'user',
        content: `Your previous answer ${checked.problem}. Answer again with only a JSON object matching the "${spec.name}" schema.`,
      },
    ];
  }
  throw new ModelInvalidOutputError(
    `structured output "${spec.name}" still invalid after ${maxAttempts} attempt(s): ${lastProblem}`,
    maxAttempts,
    usage,
    { name: spec.name, model },
  );
}
