/**
 * What the reactive policy reads of its prompt, and nothing else: the person's messages, the
 * runtime's tail lines (change notices, recalled memories, the profile) and the calls it made
 * with their results. The whole prompt counts (earlier turns too), unlike the offline policy's
 * current-turn view: the reactive rules are about what the context carries across turns.
 */
import type { ChatMessage } from '../model-provider.port';
import { isRecord, parseJson } from '../offline/json-values';

/** The runtime starts each turn's steps with this marker (libs/runtime/src/context/history.ts). */
const TURN_MARKER = /^Turn started \(/;

/** Index of the last turn marker, or -1 when the prompt has none (another runtime). */
export function turnStart(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m.role === 'system' && TURN_MARKER.test(m.content)) return i;
  }
  return -1;
}

/** The latest user message of the current turn (-1: a turn the runtime started). */
export function turnUserIndex(messages: readonly ChatMessage[]): number {
  const start = turnStart(messages);
  for (let i = messages.length - 1; i > start; i -= 1) if (messages[i].role === 'user') return i;
  return -1;
}

export interface ToolOutcome {
  ok: boolean;
  pending: boolean;
  errorCode?: string;
  /** `result` of `{ok, result}` (the runtime's rendering), else the whole value. */
  result: Record<string, unknown>;
}

export interface SeenCall {
  /** Index of the assistant message that made the call. */
  index: number;
  id: string;
  name: string;
  args: Record<string, unknown>;
  outcome: ToolOutcome | undefined;
}

function outcomeOf(content: string): ToolOutcome {
  const value = parseJson(content);
  if (!isRecord(value)) return { ok: false, pending: /^\s*pending\b/i.test(content), result: {} };
  const result = isRecord(value.result) ? value.result : value;
  const pending =
    value.status === 'pending' ||
    value.outcome === 'pending' ||
    value.outcome === 'not_finished' ||
    result.status === 'pending';
  const error = isRecord(value.error) ? value.error : undefined;
  return {
    ok: value.ok === true && !pending,
    pending,
    result,
    ...(typeof error?.code === 'string' ? { errorCode: error.code } : {}),
  };
}

/** Every call the prompt shows from message `from` on, paired with its result (if shown). */
export function callsFrom(messages: readonly ChatMessage[], from = 0): SeenCall[] {
  const calls: SeenCall[] = [];
  const byId = new Map<string, SeenCall>();
  messages.forEach((m, index) => {
    if (index < from) return;
    if (m.role === 'assistant') {
      for (const c of m.toolCalls ?? []) {
        const args = parseJson(c.arguments);
        const call: SeenCall = { index, id: c.id, name: c.name, args: isRecord(args) ? args : {}, outcome: undefined };
        calls.push(call);
        byId.set(c.id, call);
      }
    } else if (m.role === 'tool') {
      const call = byId.get(m.toolCallId);
      if (call) call.outcome = outcomeOf(m.content);
    }
  });
  return calls;
}

/** The artefact an ok result names: `result.artifact {artifactId, version}` or `result.artifactId`. */
export function artifactOfResult(
  result: Record<string, unknown>,
): { artifactId: string; version?: number } | undefined {
  const a = result.artifact;
  if (isRecord(a) && typeof a.artifactId === 'string')
    return { artifactId: a.artifactId, ...(typeof a.version === 'number' ? { version: a.version } : {}) };
  if (typeof result.artifactId === 'string' && result.artifactId !== '')
    return {
      artifactId: result.artifactId,
      ...(typeof result.version === 'number' ? { version: result.version } : {}),
    };
  return undefined;
}

/** A change notice line of the tail (describeNotices in libs/runtime): `- artifact <id> v<from>→v<to> (…)`. */
export interface NoticeLine {
  artifactId: string;
  fromVersion: number;
  toVersion: number;
}

const NOTICE_HEADER = /^Workspace changes since you last looked/;
const NOTICE_LINE = /^- artifact (\S+) v(\d+)\s*(?:→|->)\s*v(\d+)/;

/** The change notices the prompt shows (any system message that opens with the notices' header). */
export function noticesIn(messages: readonly ChatMessage[]): NoticeLine[] {
  const notices: NoticeLine[] = [];
  for (const m of messages) {
    if (m.role !== 'system' || !NOTICE_HEADER.test(m.content)) continue;
    for (const line of m.content.split('\n')) {
      const found = NOTICE_LINE.exec(line.trim());
      if (found) notices.push({ artifactId: found[1], fromVersion: Number(found[2]), toVersion: Number(found[3]) });
    }
  }
  return notices;
}

const MEMORY_HEADER = /^Remembered about the person/;
const PROFILE_HEADER = /^About the person \(profile version \d+\):$/m;

/**
 * What the prompt says the person prefers: the recalled-memory layer's lines (their marks in
 * parentheses dropped) and the profile snapshot's lines (libs/runtime/src/context/context-builder.ts).
 * Only what the prompt shows: a forgotten memory is not recalled, so it is not here.
 */
export function preferencesIn(messages: readonly ChatMessage[]): string[] {
  const found: string[] = [];
  for (const m of messages) {
    if (m.role !== 'system') continue;
    if (MEMORY_HEADER.test(m.content)) {
      for (const line of m.content.split('\n').slice(1)) {
        const text = line
          .replace(/^\s*-\s*/, '')
          .replace(/\s*\([^()]*\)\s*$/, '')
          .trim();
        if (text !== '') found.push(text);
      }
    }
    const profile = PROFILE_HEADER.exec(m.content);
    if (profile) {
      const body = m.content.slice(profile.index + profile[0].length);
      // Only its remembered lines (libs/memory/src/profile/render-profile.ts writes them as
      // bullets): "Nothing is remembered about the person yet." is no preference.
      for (const line of body.split('\n')) {
        const bullet = /^\s*-\s+(.+)$/.exec(line);
        if (bullet) found.push(bullet[1].trim());
      }
    }
  }
  return [...new Set(found)];
}
