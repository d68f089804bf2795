/**
 * The offline policy's storyboard rules (README.md beside this file, "Storyboard"): it writes a
 * storyboard as a document with the workspace tools, reads it back or turns it into a flow when
 * asked, and recovers from someone else's edit by re-reading and resubmitting. Only tool names,
 * tool results and generic words are looked at; it understands nothing.
 */
import type { ChatMessage, ModelToolCall, ToolSpec } from '../model-provider.port';
import { storyboardArguments, storyboardFlowArguments } from './tool-arguments';
import { isRecord, parseJson } from './json-values';

export const STORYBOARD_TOOLS = {
  write: 'document.write',
  read: 'document.read',
  edit: 'document.edit',
  flow: 'flow.create',
  search: 'asset.search',
  delete: 'artifact.delete',
} as const;

const CONFLICT = 'ARTIFACT_VERSION_CONFLICT';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** How a change notice reads in a step's context (ArtifactChangeNoticed, rendered by the runtime). */
const NOTICE =
  /ArtifactChangeNoticed|change notice|change[sd] since|(?:was|were|has been) (?:changed|edited)|已(?:被)?(?:修改|更改|编辑)/i;
const UUID_IN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** Articles and demonstratives are no search words ("delete the storyboard" searches "storyboard"). */
const FILLER_WORDS =
  /(?<!\p{L})(?:the|a|an|my|our|this|that|these|those|le|la|les|un|une|der|die|das|den|el|los|las|una|mon|ma|mes|mein\p{L}*)(?!\p{L})|这个|那个|我的/giu;
const searchWords = (subject: string) =>
  subject.replace(FILLER_WORDS, ' ').replace(/\s+/g, ' ').trim() || subject.trim();
const FLOW_WORDS = /(?<!\p{L})(?:flows?|workflows?|nodes?|graph)(?!\p{L})|流程|节点|節點|工作流/iu;
/** A storyboard request that also asks for a flow (rule 4). */
export const flowAsked = (text: string) => FLOW_WORDS.test(text);

interface Call {
  name: string;
  args: Record<string, unknown>;
}

interface Outcome {
  ok: boolean;
  result: Record<string, unknown>;
  errorCode?: string;
}

function callsOf(messages: readonly ChatMessage[]): Map<string, Call> {
  const calls = new Map<string, Call>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.toolCalls ?? []) {
      const args = parseJson(c.arguments);
      calls.set(c.id, { name: c.name, args: isRecord(args) ? args : {} });
    }
  }
  return calls;
}

/** A tool message as the runtime renders it: `{ok, result}` or `{ok: false, error: {code}}`. */
function outcomeOf(content: string): Outcome {
  const value = parseJson(content);
  if (!isRecord(value)) return { ok: false, result: {} };
  const error = isRecord(value.error) ? value.error : undefined;
  return {
    ok: value.ok === true,
    result: isRecord(value.result) ? value.result : {},
    ...(typeof error?.code === 'string' ? { errorCode: error.code } : {}),
  };
}

const artifactOf = (outcome: Outcome): { artifactId: string; version: number } | undefined => {
  const a = outcome.result.artifact;
  return isRecord(a) && typeof a.artifactId === 'string' && typeof a.version === 'number'
    ? { artifactId: a.artifactId, version: a.version }
    : undefined;
};

export interface StoryboardInput {
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  userIndex: number;
  userText: string;
  storyboardAsked: boolean;
  /** A delete for which the generic rules would call artifact.delete. */
  artifactDeleteAsked: boolean;
  /** What a delete names, for asset.search (the request without its keyword). */
  deleteSubject: string;
  /** What the storyboard is about: the request without its keyword. */
  subject: string;
  chinese: boolean;
  callId: string;
}

type Step = { toolCalls: ModelToolCall[] } | undefined;

/**
 * The next storyboard action, or undefined to leave the step to the generic rules (which then
 * summarize the latest tool result, or answer).
 */
export function storyboardStep(input: StoryboardInput): Step {
  const offered = (name: string) => input.tools.some((t) => t.name === name);
  // With on-demand tool domains the artefact tools may be offered without the document ones:
  // deleting by words needs only the former (rule 0).
  const documents = offered(STORYBOARD_TOOLS.write) && offered(STORYBOARD_TOOLS.read);
  if (!documents && !(input.artifactDeleteAsked && offered(STORYBOARD_TOOLS.search))) return undefined;
  const call = (name: string, args: Record<string, unknown>): Step => ({
    toolCalls: [{ id: input.callId, name, arguments: JSON.stringify(args) }],
  });
  const calls = callsOf(input.messages);
  const results = input.messages
    .map((m, index) => ({ m, index }))
    .filter((r): r is { m: Extract<ChatMessage, { role: 'tool' }>; index: number } => r.m.role === 'tool')
    .map(({ m, index }) => ({ index, call: calls.get(m.toolCallId), outcome: outcomeOf(m.content) }));

  // 1. A change notice about an artefact this conversation wrote or read, newer than its last
  //    read: read the latest before anything else.
  const noticed = documents ? noticedArtifact(input.messages, results) : undefined;
  if (noticed !== undefined) return call(STORYBOARD_TOOLS.read, { artifactId: noticed });

  const since = results.filter((r) => r.index > input.userIndex);
  const latest = since.at(-1);
  // 0. Deleting an artefact named by words only: find it first, then delete the most recently
  //    changed match (a new turn's context does not hold the ids earlier turns saw).
  if (input.artifactDeleteAsked && offered(STORYBOARD_TOOLS.search) && !UUID_IN.test(input.userText)) {
    if (latest === undefined) return call(STORYBOARD_TOOLS.search, { text: searchWords(input.deleteSubject) });
    const found = latest.call?.name === STORYBOARD_TOOLS.search ? latest.outcome.result.artifacts : undefined;
    if (Array.isArray(found) && found.length > 0) {
      const newest = mostRecentlyChanged(found);
      if (isRecord(newest) && typeof newest.artifactId === 'string') {
        return call(STORYBOARD_TOOLS.delete, { artifactId: newest.artifactId });
      }
    }
  }
  if (!documents) return undefined;
  if (latest !== undefined) {
    const { call: made, outcome } = latest;
    // 2. A write refused because the document moved on: re-read it.
    const target = typeof made?.args.artifactId === 'string' ? made.args.artifactId : undefined;
    if (
      (made?.name === STORYBOARD_TOOLS.write || made?.name === STORYBOARD_TOOLS.edit) &&
      outcome.errorCode === CONFLICT &&
      target !== undefined
    ) {
      return call(STORYBOARD_TOOLS.read, { artifactId: target });
    }
    // 3. The re-read after that refusal: resubmit the refused text on the version just read.
    const read = artifactOf(outcome);
    const before = since.at(-2);
    if (made?.name === STORYBOARD_TOOLS.read && outcome.ok && read !== undefined && before !== undefined) {
      const refused = before.call;
      if (
        refused?.name === STORYBOARD_TOOLS.write &&
        before.outcome.errorCode === CONFLICT &&
        refused.args.artifactId === read.artifactId &&
        typeof refused.args.text === 'string'
      ) {
        return call(STORYBOARD_TOOLS.write, {
          artifactId: read.artifactId,
          baseVersion: read.version,
          text: refused.args.text,
        });
      }
    }
    // 4. A storyboard written or read back, and a flow asked for: one node per shot.
    const flowWanted = input.storyboardAsked && flowAsked(input.userText) && offered(STORYBOARD_TOOLS.flow);
    const flowMade = since.some((r) => r.call?.name === STORYBOARD_TOOLS.flow);
    if (flowWanted && !flowMade && outcome.ok) {
      if (made?.name === STORYBOARD_TOOLS.write && typeof made.args.text === 'string') {
        return call(STORYBOARD_TOOLS.flow, storyboardFlowArguments(String(made.args.title ?? ''), made.args.text));
      }
      if (made?.name === STORYBOARD_TOOLS.read && typeof outcome.result.text === 'string') {
        return call(
          STORYBOARD_TOOLS.flow,
          storyboardFlowArguments(String(outcome.result.title ?? ''), outcome.result.text),
        );
      }
    }
    return undefined;
  }

  if (!input.storyboardAsked) return undefined;
  // 5. A storyboard this conversation made already: read it back (the person may have edited it).
  const known = results
    .filter((r) => r.index < input.userIndex && r.outcome.ok)
    .filter((r) => r.call?.name === STORYBOARD_TOOLS.write || r.call?.name === STORYBOARD_TOOLS.read)
    .map((r) => artifactOf(r.outcome))
    .filter((a) => a !== undefined)
    .at(-1);
  if (known !== undefined) return call(STORYBOARD_TOOLS.read, { artifactId: known.artifactId });
  // 6. Otherwise write a new storyboard document (its id derives from this call's id).
  return call(STORYBOARD_TOOLS.write, storyboardArguments(input.subject, input.chinese));
}

function noticedArtifact(
  messages: readonly ChatMessage[],
  results: ReadonlyArray<{ index: number; call: Call | undefined; outcome: Outcome }>,
): string | undefined {
  const touched = new Map<string, number>();
  const lastRead = new Map<string, number>();
  for (const r of results) {
    const artifact = artifactOf(r.outcome);
    if (artifact === undefined) continue;
    touched.set(artifact.artifactId, r.index);
    if (r.call?.name === STORYBOARD_TOOLS.read) lastRead.set(artifact.artifactId, r.index);
  }
  // Never twice in a row: a notice shown after the read that answered it asks for nothing more.
  const latest = results.at(-1);
  const justRead = latest?.call?.name === STORYBOARD_TOOLS.read ? artifactOf(latest.outcome)?.artifactId : undefined;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m.role === 'tool' || m.role === 'assistant' || !NOTICE.test(m.content)) continue;
    for (const id of m.content.match(UUID) ?? []) {
      const known = id.toLowerCase();
      if (!touched.has(known) || known === justRead) continue;
      if ((lastRead.get(known) ?? -1) < i) return known;
    }
  }
  return undefined;
}

/** asset.search lists the most recently changed first; its updatedAt decides when present. */
function mostRecentlyChanged(found: readonly unknown[]): unknown {
  const at = (a: unknown) => (isRecord(a) && typeof a.updatedAt === 'string' ? a.updatedAt : '');
  return found.reduce((best, a) => (at(a) > at(best) ? a : best), found[0]);
}
