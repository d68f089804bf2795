import type { ChatMessage } from '../model-provider.port';

interface PropertySchema {
  type?: unknown;
  enum?: unknown;
  default?: unknown;
  minimum?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const CONTENT_NAMES = /^(text|content|note|body|message|query|summary|description|value)$/i;
const SHORT_NAMES = /^(title|name|subject|label)$/i;
const ID_NAME = /(^id$|Id$|_id$|^ids?$)/;

export interface ArgumentContext {
  payload: string;
  /** Identifiers the user may mean, most likely first. */
  idCandidates: (property: string) => readonly string[];
}

function typeOf(schema: PropertySchema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return undefined;
}

function valueFor(name: string, schema: PropertySchema, required: boolean, context: ArgumentContext): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return required || schema.default === undefined ? schema.enum[0] : undefined;
  const type = typeOf(schema);
  if (type === 'string') {
    if (ID_NAME.test(name)) return context.idCandidates(name)[0] ?? (required ? '' : undefined);
    if (CONTENT_NAMES.test(name)) return context.payload;
    if (SHORT_NAMES.test(name)) return context.payload.slice(0, 60);
    return required ? context.payload : undefined;
  }
  if (!required) return undefined;
  if (schema.default !== undefined) return schema.default;
  if (type === 'number' || type === 'integer')
    return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 10) : 10;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return context.payload;
}

/**
 * Arguments for a tool from its JSON Schema: required fields always, content-like fields too.
 * Wrong guesses are fine: the tool rejects them and the policy reports the tool's error.
 */
export function buildArguments(parameters: Record<string, unknown>, context: ArgumentContext): Record<string, unknown> {
  const properties = isRecord(parameters.properties) ? parameters.properties : {};
  const required = Array.isArray(parameters.required) ? parameters.required.filter((r) => typeof r === 'string') : [];
  const args: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (!isRecord(schema)) continue;
    const value = valueFor(name, schema, required.includes(name), context);
    if (value !== undefined) args[name] = value;
  }
  return args;
}

const ID_TOKEN = /(?<![\p{L}\p{N}])(?=[\w:-]*\d)[A-Za-z0-9][\w:-]*(?![\p{L}\p{N}])/gu;

function collectIds(value: unknown, key: string, found: string[], depth = 0): void {
  if (depth > 3) return;
  if (Array.isArray(value)) {
    for (const item of value) collectIds(item, key, found, depth + 1);
  } else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) {
      if ((k === key || k === 'id') && (typeof v === 'string' || typeof v === 'number')) found.push(String(v));
      else collectIds(v, key, found, depth + 1);
    }
  }
}

/** Ids written in the user's text first, then ids seen in tool results, most recent first. */
export function idCandidatesFrom(userText: string, messages: readonly ChatMessage[]) {
  return (property: string): string[] => {
    const found = [...(userText.match(ID_TOKEN) ?? [])];
    for (const message of [...messages].reverse()) {
      if (message.role !== 'tool') continue;
      try {
        collectIds(JSON.parse(message.content), property, found);
      } catch {
        // not JSON: nothing to look up in it
      }
    }
    return found;
  };
}
