import { mediaKindOfTool, mediaRequestOf, OFFLINE_MEDIA_KINDS, type OfflineMediaKind } from './media-intent';
import type { PHRASES } from './phrases';
import { isRecord } from './json-values';

type MediaOutcome = { state: 'pending' } | { state: 'ready'; artifactId: string; kind?: OfflineMediaKind } | undefined;

/**
 * A media call's result as the policy reads it: still being made (a pending result, however the
 * runtime wraps it), or done with the artefact it made. Anything else (an error, a result
 * without an artefact) is left to the generic summary.
 */
function outcomeOf(content: string): MediaOutcome {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return /^\s*pending\b/i.test(content) ? { state: 'pending' } : undefined;
  }
  if (!isRecord(value)) return undefined;
  const inner = isRecord(value.result) ? value.result : value;
  if (value.status === 'pending' || value.outcome === 'pending' || inner.status === 'pending')
    return { state: 'pending' };
  // A call that started and has no result yet is still being made, as far as the person can tell.
  if (value.outcome === 'not_finished') return { state: 'pending' };
  if (value.ok === false || 'error' in value) return undefined;
  if (typeof inner.artifactId !== 'string' || inner.artifactId === '') return undefined;
  const kind = OFFLINE_MEDIA_KINDS.find((k) => k === inner.kind);
  return { state: 'ready', artifactId: inner.artifactId, kind };
}

export interface MediaReplyInput {
  /** The latest tool message's content and the name of the tool it answers. */
  content: string;
  toolName: string;
  userText: string;
  /** The latest user message is a media request (intents.ts). */
  mediaAsked: boolean;
  phrases: (typeof PHRASES)[keyof typeof PHRASES];
}

/**
 * The reply after a media tool's result, or undefined when the result is not a media one. Only
 * for a media request or a tool that reads as a media tool: a pending export keeps its summary.
 */
export function mediaReply(input: MediaReplyInput): string | undefined {
  const toolKind = mediaKindOfTool(input.toolName);
  if (!input.mediaAsked && toolKind === undefined) return undefined;
  const outcome = outcomeOf(input.content);
  if (outcome === undefined) return undefined;
  if (outcome.state === 'pending') {
    return input.phrases.mediaPending(toolKind ?? mediaRequestOf(input.userText)?.kind ?? 'image');
  }
  const kind = outcome.kind ?? toolKind ?? mediaRequestOf(input.userText)?.kind ?? 'image';
  return input.phrases.mediaReady(kind, outcome.artifactId);
}
