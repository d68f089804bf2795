/**
 * Rule 2 (README.md beside this file, "Change notices"): a person's request to change a document
 * is made with one document.edit based on the version the policy knows. What it knows is only
 * what its prompt shows: its own earlier write / read / edit results, and the change notices of
 * the tail. A notice newer than what it saw → document.read first, then the edit at the version
 * read. No notice → the edit is based on the version it last saw, so a context that drops the
 * notice makes a stale edit (the drills' stale_edits metric), exactly as a real model would.
 */
import type { ChatMessage, ModelToolCall, ToolSpec } from '../model-provider.port';
import { artifactOfResult, callsFrom, noticesIn, turnUserIndex, type SeenCall } from './prompt-reading';

export const DOCUMENT_TOOLS = { read: 'document.read', edit: 'document.edit', write: 'document.write' } as const;

/** A changing verb (en, fr, de, es, zh) … */
const CHANGE_WORDS =
  /(?<!\p{L})(?:change|edit|revise|update|modify|rewrite|rename|reword|fix|add|insert|shorten|correct|modifie[rz]?|change[rz]?|corrige[rz]?|ajoute[rz]?|ändere?|ändern|bearbeite|überarbeite|füge|cambia|modifica|edita|corrige|añade)(?!\p{L})|修改|更改|改成|改为|改一下|编辑|添加|加上/iu;
/** … of a document … */
const DOCUMENT_WORDS =
  /(?<!\p{L})(?:documents?|docs?|scripts?|storyboards?|brief|outline|concept|shot ?list|scénario|drehbuch|dokument|guion|documento)(?!\p{L})|文档|脚本|分镜/iu;
/** … or of its parts, when no media is named ("change the text on the poster" is about the poster). */
const PART_WORDS =
  /(?<!\p{L})(?:texts?|titles?|sections?|paragraphs?|texte|titre|titel|texto|título)(?!\p{L})|标题|文本|段落/iu;
const MEDIA_WORDS =
  /(?<!\p{L})(?:posters?|images?|pictures?|photos?|illustrations?|logos?|videos?|clips?|affiches?|plakate?|bild(?:er)?|imagen(?:es)?|carteles?)(?!\p{L})|海报|图片|图像|照片|视频/iu;

export const asksDocumentChange = (text: string) =>
  CHANGE_WORDS.test(text) && (DOCUMENT_WORDS.test(text) || (PART_WORDS.test(text) && !MEDIA_WORDS.test(text)));

export interface KnownDocument {
  artifactId: string;
  version: number;
  /** Its text at that version, when the prompt shows it (a write's text, a read's result). */
  text?: string;
  /** Index of the message that told it. */
  seenAt: number;
}

function applyEdits(text: string | undefined, edits: unknown): string | undefined {
  if (text === undefined || !Array.isArray(edits)) return undefined;
  let next = text;
  for (const e of edits as unknown[]) {
    const edit = e as { old?: unknown; new?: unknown };
    if (typeof edit.old !== 'string' || typeof edit.new !== 'string' || !next.includes(edit.old)) return undefined;
    next = next.replace(edit.old, edit.new);
  }
  return next;
}

/** The last version of each document the policy's own tool results showed it, in the order seen. */
export function knownDocuments(calls: readonly SeenCall[]): Map<string, KnownDocument> {
  const known = new Map<string, KnownDocument>();
  for (const call of calls) {
    if (call.outcome?.ok !== true) continue;
    const artifact = artifactOfResult(call.outcome.result);
    if (artifact?.version === undefined) continue;
    const before = known.get(artifact.artifactId);
    let text: string | undefined;
    if (call.name === DOCUMENT_TOOLS.write && typeof call.args.text === 'string') text = call.args.text;
    else if (call.name === DOCUMENT_TOOLS.read && typeof call.outcome.result.text === 'string')
      text = call.outcome.result.text;
    else if (call.name === DOCUMENT_TOOLS.edit) text = applyEdits(before?.text, call.args.edits);
    else continue;
    known.delete(artifact.artifactId);
    known.set(artifact.artifactId, {
      artifactId: artifact.artifactId,
      version: artifact.version,
      ...(text !== undefined ? { text } : {}),
      seenAt: call.index,
    });
  }
  return known;
}

export interface EditInput {
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  callId: string;
}

export type EditDecision = { kind: 'call'; call: ModelToolCall } | { kind: 'none' };

/** The section the person's words become, under the document's first line. */
const changeSection = (request: string) => `## Change requested\n\n${request.trim()}`;

/**
 * The next step of a document change the person asked for in this turn, or none (not asked, no
 * document known, no edit tool, or the edit is made: the summary is the offline rules' job).
 */
export function documentEditStep(input: EditInput): EditDecision {
  const { messages } = input;
  const offered = (name: string) => input.tools.some((t) => t.name === name);
  const userIndex = turnUserIndex(messages);
  if (userIndex < 0 || !offered(DOCUMENT_TOOLS.edit) || !offered(DOCUMENT_TOOLS.read)) return { kind: 'none' };
  const request = messages[userIndex].content;
  if (!asksDocumentChange(request)) return { kind: 'none' };

  const calls = callsFrom(messages);
  const sinceRequest = calls.filter((c) => c.index > userIndex);
  const edits = sinceRequest.filter((c) => c.name === DOCUMENT_TOOLS.edit);
  // Done, or tried twice (one refusal is re-read and retried; no loop).
  if (edits.some((c) => c.outcome?.ok === true) || edits.length >= 2) return { kind: 'none' };
  if (sinceRequest.some((c) => c.outcome === undefined || c.outcome.pending)) return { kind: 'none' };

  const known = knownDocuments(calls);
  const named = [...known.values()].filter((d) => request.includes(d.artifactId));
  const target = named.at(-1) ?? [...known.values()].sort((a, b) => a.seenAt - b.seenAt).at(-1);
  if (target === undefined) return { kind: 'none' };

  const call = (name: string, args: Record<string, unknown>): EditDecision => ({
    kind: 'call',
    call: { id: input.callId, name, arguments: JSON.stringify(args) },
  });
  const readsSince = (index: number) =>
    sinceRequest.some(
      (c) => c.name === DOCUMENT_TOOLS.read && c.args.artifactId === target.artifactId && c.index > index,
    );
  // A notice newer than the version seen: read first (the notice names the version, not the text).
  // Once only: a read that could not be made (the document gone) is the offline rules' to report.
  const notice = noticesIn(messages)
    .filter((n) => n.artifactId === target.artifactId)
    .sort((a, b) => b.toVersion - a.toVersion)[0];
  if (notice !== undefined && notice.toVersion > target.version)
    return readsSince(userIndex) ? { kind: 'none' } : call(DOCUMENT_TOOLS.read, { artifactId: target.artifactId });
  // A refused edit (someone changed it): read it again, once.
  const refused = edits.at(-1);
  if (refused !== undefined && refused.outcome?.ok === false && target.seenAt <= refused.index)
    return readsSince(refused.index) ? { kind: 'none' } : call(DOCUMENT_TOOLS.read, { artifactId: target.artifactId });
  // Read to learn the text, once: a result too large to be shown inline (stored) gives no text.
  if (target.text === undefined)
    return readsSince(userIndex) ? { kind: 'none' } : call(DOCUMENT_TOOLS.read, { artifactId: target.artifactId });

  const first = target.text.split('\n').find((line) => line.trim() !== '');
  if (first === undefined || target.text.split(first).length !== 2) return { kind: 'none' };
  return call(DOCUMENT_TOOLS.edit, {
    artifactId: target.artifactId,
    baseVersion: target.version,
    edits: [{ old: first, new: `${first}\n\n${changeSection(request)}` }],
  });
}
