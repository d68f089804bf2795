/**
 * The calls the plan policy sees in its prompt and what came of them: the assistant messages'
 * tool calls paired with their tool messages (the runtime renders a turn's committed steps that
 * way), read without trusting their shape.
 */
import type { ChatMessage } from '../model-provider.port';
import { isRecord, parseJson } from './json-values';

export interface Outcome {
  ok: boolean;
  pending: boolean;
  result: Record<string, unknown>;
  content: string;
}

export interface Done {
  name: string;
  args: Record<string, unknown>;
  outcome: Outcome | undefined;
}

function outcomeOf(content: string): Outcome {
  const value = parseJson(content);
  if (!isRecord(value)) return { ok: false, pending: /^\s*pending\b/i.test(content), result: {}, content };
  const inner = isRecord(value.result) ? value.result : {};
  const pending =
    value.status === 'pending' ||
    value.outcome === 'pending' ||
    value.outcome === 'not_finished' ||
    inner.status === 'pending';
  return { ok: value.ok === true && !pending, pending, result: inner, content };
}

/** The calls of the messages after index `from` (-1: every call the prompt shows), with their results. */
export function callsAfter(messages: readonly ChatMessage[], from: number): Done[] {
  const done: Done[] = [];
  const byId = new Map<string, Done>();
  messages.forEach((m, index) => {
    if (index <= from) return;
    if (m.role === 'assistant') {
      for (const c of m.toolCalls ?? []) {
        const args = parseJson(c.arguments);
        const entry: Done = { name: c.name, args: isRecord(args) ? args : {}, outcome: undefined };
        done.push(entry);
        byId.set(c.id, entry);
      }
    } else if (m.role === 'tool') {
      const entry = byId.get(m.toolCallId);
      if (entry) entry.outcome = outcomeOf(m.content);
    }
  });
  return done;
}

/** The calls after the last one named `name` (all of them when there is none). */
export function callsSinceLast(calls: readonly Done[], name: string): Done[] {
  return calls.slice(calls.map((c) => c.name).lastIndexOf(name) + 1);
}

/** The artefact version an ok result names (`result.artifact` of the workspace's document tools). */
export function artifactOf(outcome: Outcome | undefined): { artifactId: string; version: number } | undefined {
  const a = outcome?.result.artifact;
  return isRecord(a) && typeof a.artifactId === 'string' && typeof a.version === 'number'
    ? { artifactId: a.artifactId, version: a.version }
    : undefined;
}
