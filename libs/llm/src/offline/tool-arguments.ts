import type { ChatMessage } from '../model-provider.port';
import { isRecord } from './json-values';

interface PropertySchema {
  type?: unknown;
  enum?: unknown;
  default?: unknown;
  minimum?: unknown;
}

const CONTENT_NAMES = /^(text|content|note|body|message|query|summary|description|value)$/i;
const SHORT_NAMES = /^(title|name|subject|label)$/i;
const ID_NAME = /(^id$|Id$|_id$|^ids?$)/;

export interface ArgumentContext {
  payload: string;
  /** Identifiers the user may mean, most likely first. */
  idCandidates: (property: string) => readonly string[];
  /** Fill optional id fields from the candidates too (default true). */
  fillOptionalIds?: boolean;
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
    if (ID_NAME.test(name)) {
      if (!required && context.fillOptionalIds === false) return undefined;
      return context.idCandidates(name)[0] ?? (required ? '' : undefined);
    }
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

// --- The storyboard demo (storyboard-policy.ts): arguments of the workspace tools ------------

/** Shot headings by language: generic film grammar, not example requests. */
const SHOTS: Record<'en' | 'zh', ReadonlyArray<{ title: string; line: (subject: string) => string }>> = {
  en: [
    { title: 'Establishing', line: (s) => `Wide shot that sets the scene for ${s}.` },
    { title: 'Detail', line: (s) => `Close-up on one telling detail of ${s}.` },
    { title: 'Action', line: (s) => `Medium shot: ${s} in motion.` },
    { title: 'Closing', line: () => 'Pull back to a final wide shot; hold two seconds.' },
  ],
  zh: [
    { title: '远景', line: (s) => `远景交代${s}的环境。` },
    { title: '特写', line: (s) => `特写${s}的一个细节。` },
    { title: '中景', line: (s) => `中景表现${s}的动作。` },
    { title: '收尾', line: () => '拉远到全景，停留两秒。' },
  ],
};

const SHOT_HEADING = /^##\s+(.+)$/;
const LEADING_PREPOSITION = /^(?:for|about|of|on|pour|sur|für|über|para|sobre|de)(?!\p{L})\s*/iu;
/** 关于…的: what a Chinese request is about. */
const ABOUT_ZH = /关于(.+?)的/u;

/** What a storyboard is about: the request minus a leading "for"/"about" (or 关于…的). */
function subjectOf(payload: string): string {
  const zh = ABOUT_ZH.exec(payload);
  if (zh) return zh[1].trim();
  return payload.trim().replace(LEADING_PREPOSITION, '').trim();
}

/** A storyboard document for `subject`: a title and one `##` section per shot, as markdown. */
export function storyboardArguments(subject: string, chinese: boolean): { title: string; text: string } {
  const clean = subjectOf(subject).slice(0, 200) || (chinese ? '这个故事' : 'the story');
  const shots = SHOTS[chinese ? 'zh' : 'en'];
  const heading = chinese ? `分镜：${clean}` : `Storyboard: ${clean}`;
  const label = chinese ? '镜头' : 'Shot';
  const body = shots.map((shot, i) => `## ${label} ${i + 1}: ${shot.title}\n\n${shot.line(clean)}`).join('\n\n');
  return { title: heading.slice(0, 300), text: `# ${heading}\n\n${body}\n` };
}

/** The shots of a storyboard document (its `##` sections), for a flow with one node per shot. */
export function shotsOf(text: string): Array<{ title: string; description: string }> {
  const shots: Array<{ title: string; description: string }> = [];
  for (const line of text.split('\n')) {
    const heading = SHOT_HEADING.exec(line.trim());
    if (heading) shots.push({ title: heading[1].trim(), description: '' });
    else if (shots.length > 0 && line.trim() !== '') {
      const last = shots[shots.length - 1];
      last.description = `${last.description} ${line.trim()}`.trim().slice(0, 2_000);
    }
  }
  return shots.slice(0, 200);
}

/** flow.create arguments: one `shot` node per shot, edges in shot order. */
export function storyboardFlowArguments(title: string, text: string) {
  const shots = shotsOf(text);
  const nodes = shots.map((shot, i) => ({
    nodeId: `shot_${i + 1}`,
    kind: 'shot',
    params: { title: shot.title, description: shot.description },
  }));
  const edges = nodes.slice(1).map((node, i) => ({ edgeId: `e${i + 1}`, from: nodes[i].nodeId, to: node.nodeId }));
  return { title: title.slice(0, 300) || 'Storyboard flow', nodes, edges };
}
