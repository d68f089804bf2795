import type { ToolSpec } from '../model-provider.port';
import { MEDIA_PATTERNS, MEDIA_TOOL_WORDS, mediaPromptOf, mediaRequestOf, type OfflineMediaKind } from './media-intent';

/** In priority order: a storyboard, a delete, an export or a history request naming an image stays that. */
export const INTENTS = ['delete', 'storyboard', 'export', 'history', 'media', 'note'] as const;
export type Intent = (typeof INTENTS)[number];

// \b is ASCII-only in JS, so letters (any script) are the word boundary here.
const words = (...alternatives: string[]) => new RegExp(`(?<!\\p{L})(?:${alternatives.join('|')})(?!\\p{L})`, 'iu');
const anyOf =
  (...patterns: RegExp[]) =>
  (text: string) =>
    patterns.some((p) => p.test(text));
const chinese = (...phrases: string[]) => new RegExp(phrases.join('|'), 'u');

const KEYWORDS: Record<Intent, RegExp[]> = {
  delete: [
    words(
      'delete',
      'remove',
      'erase',
      'forget',
      'supprime\\p{L}*',
      'efface\\p{L}*',
      'lösch\\p{L}*',
      'entfern\\p{L}*',
      'borra\\p{L}*',
      'elimina\\p{L}*',
    ),
    chinese('删除', '删掉', '移除'),
  ],
  storyboard: [
    words('storyboards?', 'story boards?', 'shot lists?', 'scénarimage', 'guion gráfico'),
    chinese('分镜', '分鏡', '故事板'),
  ],
  export: [words('export\\p{L}*'), chinese('导出')],
  media: [...MEDIA_PATTERNS],
  history: [
    words(
      'history',
      'what happened',
      'so far',
      'recap',
      'historique',
      "s'est passé",
      'verlauf',
      'historie',
      'was ist passiert',
      'historial',
      'qué pasó',
      'que paso',
    ),
    chinese('历史', '发生了什么', '进展'),
  ],
  note: [
    words(
      'note',
      'notes',
      'remember',
      'jot',
      'write down',
      'noter',
      'notez',
      'retiens',
      'souviens',
      'rappelle',
      'notiz\\p{L}*',
      'merk\\p{L}*',
      'notier\\p{L}*',
      'nota',
      'anota\\p{L}*',
      'apunta\\p{L}*',
      'recuerda\\p{L}*',
    ),
    chinese('记住', '记下', '笔记', '备忘', '记一下'),
  ],
};

/** The first intent, in priority order: "delete my note" is a delete, not a note. */
/** "Please take a note: …", "note: …": an explicit note request leads, whatever words follow it. */
const LEADING_NOTE_REQUEST = /^\s*(?:please\s+)?(?:(?:take|make|jot down|write down)\s+(?:a\s+)?note\b|note\s*[:：])/i;

export function detectIntent(text: string): Intent | undefined {
  if (LEADING_NOTE_REQUEST.test(text)) return 'note';
  const intent = INTENTS.find((candidate) => anyOf(...KEYWORDS[candidate])(text));
  // "Remember to make a poster" is a note; "make a poster that says remember" is media.
  if (intent === 'media' && firstIndex(text, KEYWORDS.note) < (mediaRequestOf(text)?.verbStart ?? 0)) return 'note';
  return intent;
}

/** The message names a note ("delete my note" deletes a note, not an artefact). */
export const mentionsNote = (text: string) => anyOf(...KEYWORDS.note)(text);

function firstIndex(text: string, patterns: readonly RegExp[]): number {
  const found = patterns.map((p) => p.exec(text)?.index).filter((i): i is number => i !== undefined);
  return found.length > 0 ? Math.min(...found) : Number.POSITIVE_INFINITY;
}

const FILLER = /^(?:[\s:：,，.。;；!！-]|(?:that|to|down|que|dass|de|toi|moi|dir|dich)(?!\p{L}))+/iu;

/**
 * What the user wants kept: the text after the intent's keyword when the keyword leads the
 * message ("remember that X" → "X"), else the whole message.
 */
export function payloadOf(text: string, intent: Intent): string {
  // A media prompt keeps its noun: "make a poster for X" → "a poster for X" (media-intent.ts).
  if (intent === 'media') return mediaPromptOf(text);
  const trimmed = text.trim();
  for (const pattern of KEYWORDS[intent]) {
    const found = pattern.exec(trimmed);
    if (!found || found.index > Math.max(24, trimmed.length * 0.4)) continue;
    const rest = trimmed
      .slice(found.index + found[0].length)
      .replace(FILLER, '')
      .trim();
    if (rest.length > 0) return rest;
  }
  return trimmed;
}

// Singular stems (see `stem`). `core` must appear for a tool to qualify at all; `verbs` only
// break ties among qualifying tools; `avoid` marks neighbours (list_notes is not take_note).
type ToolWords = { core: readonly string[]; verbs: readonly string[]; avoid: readonly string[] };

const TOOL_WORDS: Record<Exclude<Intent, 'media'>, ToolWords> = {
  note: {
    core: ['note', 'memo', 'remember'],
    verbs: ['take', 'add', 'create', 'new', 'write', 'save', 'store'],
    avoid: ['delete', 'remove', 'list', 'history', 'export', 'read', 'search', 'get'],
  },
  history: {
    core: ['history', 'timeline', 'event', 'activity', 'log'],
    verbs: ['list', 'show', 'get'],
    avoid: ['delete', 'remove', 'export'],
  },
  export: { core: ['export'], verbs: [], avoid: ['delete', 'remove'] },
  // A storyboard is written as a document (document.write); the flow comes later, when asked.
  storyboard: {
    core: ['document', 'storyboard'],
    verbs: ['write', 'create', 'new'],
    avoid: ['read', 'edit', 'delete', 'list', 'search', 'note', 'export'],
  },
  delete: { core: ['delete', 'remove', 'erase'], verbs: [], avoid: ['export'] },
};

// Crude English singular so "Removes notes" reads as remove + note.
const stem = (word: string) =>
  word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;

const tokens = (text: string) =>
  text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(stem);

/** A media request picks by the kind it asks for: a poster is an image, a clip a video. */
const wordsFor = (intent: Intent, request: string): ToolWords =>
  intent === 'media' ? MEDIA_TOOL_WORDS[mediaRequestOf(request)?.kind ?? 'image'] : TOOL_WORDS[intent];

function score(tool: ToolSpec, { core, verbs, avoid }: ToolWords, asked: readonly string[]): number {
  const name = tokens(tool.name);
  const description = tokens(tool.description);
  const count = (list: readonly string[], words: readonly string[]) => list.filter((t) => words.includes(t)).length;
  const wanted = count(name, core) * 3 + count(description, core);
  if (wanted === 0) return 0;
  // A word of the tool's name that the person used picks among tools of one intent: "delete
  // the note" is notes.delete, not artifact.delete (core words count once, above).
  const named = name.filter((t) => !core.includes(t) && asked.includes(t)).length * 4;
  // The name says what a tool does; its description may mention its neighbours ("see list_notes").
  return (
    wanted +
    named +
    count(name, verbs) +
    count(description, verbs) -
    count(name, avoid) * 5 -
    count(description, avoid) * 2
  );
}

function best(tools: readonly ToolSpec[], words: ToolWords, asked: readonly string[]): ToolSpec | undefined {
  const ranked = tools
    .map((tool) => ({ tool, score: score(tool, words, asked) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name));
  return ranked[0]?.tool;
}

/** The offered tool that best fits the intent, judged by name and description (and the request's words). */
export function pickTool(tools: readonly ToolSpec[], intent: Intent, request = ''): ToolSpec | undefined {
  return best(tools, wordsFor(intent, request), tokens(request));
}

/** The offered tool that makes media of this kind (a plan's shots or posters), by the same scoring. */
export function pickMediaTool(tools: readonly ToolSpec[], kind: OfflineMediaKind): ToolSpec | undefined {
  return best(tools, MEDIA_TOOL_WORDS[kind], []);
}
