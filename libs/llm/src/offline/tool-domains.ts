/**
 * The offline policy's loading rule (README.md beside this file, "Tool domains"): with on-demand
 * tool domains a step offers the core tools and the domains the checklist's stage needs; others
 * are loaded with `tools.load` and offered from the next step on. When a rule wants a tool of a
 * domain the task state lists as loadable, the policy loads that domain (only the domains the
 * intent's rule uses), then works as before. Only the tail's domains line, tool names and the
 * intent are read.
 */
import type { ChatMessage, ModelToolCall, ToolSpec } from '../model-provider.port';
import { mentionsNote, pickTool, type Intent } from './intents';
import { isRecord, parseJson } from './json-values';
import type { OfflineLanguage } from './language';
import { mediaRequestOf } from './media-intent';
import { PHRASES } from './phrases';
import { flowAsked, STORYBOARD_TOOLS } from './storyboard-policy';

export const LOAD_TOOL = 'tools.load';

/** The domains tools.load accepts (libs/runtime/src/tools/load-domains-tool.ts). */
export const LOADABLE_DOMAINS = ['image', 'video', 'audio', '3d', 'document', 'asset', 'flow'] as const;
export type LoadableDomain = (typeof LOADABLE_DOMAINS)[number];

/** What the step may call and load, from the task state's last line and the offered tools. */
export interface DomainReach {
  /** Domains the task state lists as loadable (none when it has no domains line). */
  loadable: readonly LoadableDomain[];
  /** Domains this turn already asked for with tools.load. */
  loadedThisTurn: readonly string[];
  /** tools.load is offered. */
  canLoad: boolean;
}

/** `Tool domains you can call now: core, … (load others with tools.load: image, …)` (describe-task.ts). */
const DOMAINS_LINE = /^Tool domains you can call now: .*?(?:\(load others with tools\.load: ([^)\n]*)\))?$/m;

/**
 * Reads the reach of a step. `messages` is the current turn's view: every tools.load call in it
 * was made this turn.
 */
export function domainReach(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): DomainReach {
  let listed: string[] = [];
  for (const m of messages) {
    if (m.role !== 'system') continue;
    const line = DOMAINS_LINE.exec(m.content);
    if (line !== null) listed = (line[1] ?? '').split(',').map((d) => d.trim());
  }
  const loadedThisTurn = loadCalls(messages).flatMap((c) => {
    const args = parseJson(c.arguments);
    return isRecord(args) && Array.isArray(args.domains) ? args.domains.map(String) : [];
  });
  return {
    loadable: LOADABLE_DOMAINS.filter((d) => listed.includes(d)),
    loadedThisTurn,
    canLoad: tools.some((t) => t.name === LOAD_TOOL),
  };
}

const loadCalls = (messages: readonly ChatMessage[]): ModelToolCall[] =>
  messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : [])).filter((c) => c.name === LOAD_TOOL);

/**
 * The domains an intent's rule needs and the offered tools do not cover: a media request its
 * kind; a storyboard the documents (and the flows when it asks for one); a delete that names no
 * note the artefacts (asset.search, artifact.delete); an export the documents. Notes and history
 * are core.
 */
export function domainsWanted(intent: Intent, text: string, tools: readonly ToolSpec[]): LoadableDomain[] {
  const offered = (name: string) => tools.some((t) => t.name === name);
  switch (intent) {
    case 'media':
      return pickTool(tools, 'media', text) === undefined ? [mediaRequestOf(text)?.kind ?? 'image'] : [];
    case 'storyboard':
      return [
        ...(offered(STORYBOARD_TOOLS.write) && offered(STORYBOARD_TOOLS.read) ? [] : (['document'] as const)),
        ...(flowAsked(text) && !offered(STORYBOARD_TOOLS.flow) ? (['flow'] as const) : []),
      ];
    case 'delete':
      return mentionsNote(text) || offered(STORYBOARD_TOOLS.delete) ? [] : ['asset'];
    case 'export':
      return pickTool(tools, 'export', text) === undefined ? ['document'] : [];
    case 'history':
    case 'note':
      return [];
  }
}

/**
 * tools.load with the wanted domains the task state lists as loadable; nothing when none is (the
 * domain is callable, or the runtime has no domains, and the rules go on as before). A domain
 * this turn already loaded that is still not callable is no reason to load again: the reply says
 * so instead, so the policy never loops.
 */
export function loadStep(
  wanted: readonly LoadableDomain[],
  reach: DomainReach,
  callId: string,
  language: OfflineLanguage,
): { text: string; toolCalls: ModelToolCall[] } | undefined {
  const missing = wanted.filter((d) => reach.loadable.includes(d));
  if (missing.length === 0 || !reach.canLoad) return undefined;
  const again = missing.filter((d) => reach.loadedThisTurn.includes(d));
  if (again.length > 0) return { text: PHRASES[language].notLoaded(again.join(', ')), toolCalls: [] };
  return { text: '', toolCalls: [{ id: callId, name: LOAD_TOOL, arguments: JSON.stringify({ domains: missing }) }] };
}

/**
 * The conversation without its tools.load calls and their results: loading is the policy's own
 * bookkeeping, so the rules after it read the turn as if the domain had been there all along.
 */
export function withoutLoads(messages: readonly ChatMessage[]): ChatMessage[] {
  const loads = new Set(loadCalls(messages).map((c) => c.id));
  if (loads.size === 0) return [...messages];
  return messages.flatMap((m): ChatMessage[] => {
    if (m.role === 'tool') return loads.has(m.toolCallId) ? [] : [m];
    if (m.role !== 'assistant' || m.toolCalls === undefined) return [m];
    const calls = m.toolCalls.filter((c) => !loads.has(c.id));
    if (calls.length === m.toolCalls.length) return [m];
    if (calls.length === 0) return m.content === '' ? [] : [{ role: 'assistant', content: m.content }];
    return [{ ...m, toolCalls: calls }];
  });
}
