/**
 * The offline policy: a DEMO STAND-IN, NOT A MODEL. It is the embedded default so `npm start`
 * works with no API key and no network, and so the runtime's loop (model step → tool call →
 * tool result → reply) runs end to end on real tools.
 *
 * What it does, all of it, deterministically (the same request always gets the same reply):
 * - reads the latest user message and guesses its language (en, zh, fr, de, es) from its words,
 *   else from a "language: xx" line in a system message, else English;
 * - if a tool result already follows that message, it replies with a short summary of that
 *   result and stops (finishReason 'stop') — so it calls at most one tool per user message;
 * - a brief of a known kind (a video, a poster series, a storyboard for a film), with the plan
 *   and document tools offered, follows plan-policy.ts: record the brief, plan a checklist, and
 *   work one stage per turn (a document, or one media call per shot) up to its summary; a turn
 *   the runtime starts (no user message) works the checklist's next ready item, and a stage the
 *   person sent back with a note revises the document linked to it;
 * - a storyboard request, with the workspace tools offered, follows storyboard-policy.ts: write
 *   the storyboard as a document, read it back or make a flow of it when asked, and after a
 *   version conflict or a change notice re-read it (and resubmit a refused write);
 * - otherwise it spots a keyword intent (delete / storyboard / export / history / media / note, in that
 *   priority), picks the offered tool whose name and description fit it best (it knows no registry, only
 *   the request), fills the arguments from the tool's JSON Schema, and calls that one tool;
 * - after a media tool's result (media-reply.ts) it says the image (video, 3D model, audio) is being
 *   made and will appear in the workspace, or, once the completion arrives, names the artefact;
 * - when a rule wants a tool of a domain the task state lists as loadable (on-demand tool domains),
 *   it calls tools.load with that domain first and goes on at the next step (tool-domains.ts);
 * - with nothing to do it greets or acknowledges, and says what it is;
 * - asked for a structured `route_message` or `check_duplicate` answer (the router), it reads the
 *   RoutingPrompt / DuplicatePrompt JSON of the last user message and answers by the rules of
 *   routing-policy.ts / duplicate-policy.ts (see README.md beside this file).
 * Usage is estimated from character counts. It does not understand anything; configure an
 * OpenAI-compatible endpoint (LOMO_MODEL_PROVIDER=openai) for real behaviour.
 */
import {
  DUPLICATE_ANSWER_SCHEMA_NAME,
  DuplicatePrompt,
  ROUTING_ANSWER_SCHEMA_NAME,
  RoutingPrompt,
} from '@lomo/contracts';
import { ModelBadRequestError, throwIfAborted } from '../model-errors';
import type {
  ChatMessage,
  CompletionRequest,
  CompletionResult,
  ModelProvider,
  ModelToolCall,
  ToolSpec,
} from '../model-provider.port';
import { estimateUsage } from '../token-estimate';
import { checkDuplicateOffline } from './duplicate-policy';
import { detectIntent, payloadOf, pickTool } from './intents';
import { declaredLanguage, detectLanguage } from './language';
import { mediaReply } from './media-reply';
import { isGreeting, PHRASES } from './phrases';
import { planStep } from './plan-policy';
import { buildArguments, idCandidatesFrom } from './tool-arguments';
import { routeOffline } from './routing-policy';
import { storyboardStep } from './storyboard-policy';
import { readToolResult } from './tool-result';
import { readStoredResult } from './stored-result';
import { domainReach, domainsWanted, LOAD_TOOL, loadStep, withoutLoads } from './tool-domains';

export const OFFLINE_MODEL_NAME = 'lomo-offline-policy-1';

type Decision = { text: string; toolCalls: ModelToolCall[] };

function lastIndexOfRole(messages: readonly ChatMessage[], role: ChatMessage['role']): number {
  for (let i = messages.length - 1; i >= 0; i -= 1) if (messages[i].role === role) return i;
  return -1;
}

function toolNameOf(messages: readonly ChatMessage[], callId: string): string {
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const call = m.toolCalls?.find((c) => c.id === callId);
    if (call) return call.name;
  }
  return 'tool';
}

/** The runtime starts each turn's steps with this marker (libs/runtime/src/context/history.ts). */
const TURN_MARKER = /^Turn started \(/;

/**
 * What this turn is about: the system messages (rules, summaries, the task's state) and every
 * message from the last turn marker on. Earlier turns stay in the prompt for a real model; the
 * policy's rules read only the current turn (README.md beside this file, "Context").
 */
export function currentTurnView(messages: readonly ChatMessage[]): ChatMessage[] {
  let marker = -1;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m.role === 'system' && TURN_MARKER.test(m.content)) {
      marker = i;
      break;
    }
  }
  if (marker < 0) return [...messages];
  return [...messages.slice(0, marker).filter((m) => m.role === 'system'), ...messages.slice(marker)];
}

function decide(request: CompletionRequest): Decision {
  const { toolChoice } = request;
  const turn = currentTurnView(request.messages);
  // Loading a tool domain is the policy's own bookkeeping (tool-domains.ts): the rules read the
  // turn without those calls, and tools.load is no tool an intent picks.
  const messages = withoutLoads(turn);
  const tools = request.tools.filter((t) => t.name !== LOAD_TOOL);
  const userIndex = lastIndexOfRole(messages, 'user');
  const userText = userIndex >= 0 ? messages[userIndex].content : '';
  const systemTexts = messages.filter((m) => m.role === 'system').map((m) => m.content);
  const phrases = PHRASES[detectLanguage(userText) ?? declaredLanguage(systemTexts) ?? 'en'];

  const intent = detectIntent(userText);
  const usable = toolChoice === 'none' ? [] : tools;
  // Unique within a conversation because each step adds messages (a load too); stable for the same request.
  const callId = `offline_${turn.length}_0`;
  const results = messages.slice(userIndex + 1).filter((m) => m.role === 'tool');
  if (typeof toolChoice !== 'object') {
    const language = detectLanguage(userText) ?? declaredLanguage(systemTexts) ?? 'en';
    const reach = domainReach(turn, toolChoice === 'none' ? [] : request.tools);
    // A brief of a known kind, or a turn the runtime started on a checklist: plan-policy.ts.
    const planned = planStep({ messages, tools: usable, userIndex, userText, intent, language, callId, reach });
    if (planned !== undefined) return planned;
    // Before the first call for a request: load the domains its rule needs and is not offered.
    const loading =
      intent !== undefined && results.length === 0
        ? loadStep(domainsWanted(intent, userText, usable), reach, callId, language)
        : undefined;
    if (loading !== undefined) return loading;
    const deleting = intent === 'delete' ? pickTool(usable, 'delete', userText) : undefined;
    const storyboard = storyboardStep({
      messages,
      tools: usable,
      userIndex,
      userText,
      storyboardAsked: intent === 'storyboard',
      artifactDeleteAsked: deleting?.name === 'artifact.delete',
      deleteSubject: intent === 'delete' ? payloadOf(userText, 'delete') : '',
      subject: intent === 'storyboard' ? payloadOf(userText, 'storyboard') : userText.trim(),
      chinese: language.startsWith('zh'),
      callId,
    });
    if (storyboard !== undefined) return { text: '', toolCalls: storyboard.toolCalls };
  }

  const latest = results[results.length - 1];
  if (latest?.role === 'tool') {
    const paging = readStoredResult(latest, turn, usable, callId);
    if (paging !== undefined) return { text: '', toolCalls: [paging] };
    const tool = toolNameOf(messages, latest.toolCallId);
    const media = mediaReply({
      content: latest.content,
      toolName: tool,
      userText,
      mediaAsked: intent === 'media',
      phrases,
    });
    if (media !== undefined) return { text: media, toolCalls: [] };
    const { summary, failed } = readToolResult(latest.content);
    return { text: failed ? phrases.failed(tool, summary) : phrases.done(tool, summary), toolCalls: [] };
  }

  let tool: ToolSpec | undefined;
  if (typeof toolChoice === 'object') tool = usable.find((t) => t.name === toolChoice.name);
  else if (intent) tool = pickTool(usable, intent, userText);
  if (!tool && toolChoice === 'required') tool = [...usable].sort((a, b) => a.name.localeCompare(b.name))[0];

  if (tool) {
    const args = buildArguments(tool.parameters, {
      payload: intent ? payloadOf(userText, intent) : userText.trim(),
      idCandidates: idCandidatesFrom(userText, messages),
      // A media request fills its prompt and leaves the rest to the schema's defaults: a number
      // in "a 10 second clip" is no reference artefact.
      fillOptionalIds: intent !== 'media',
    });
    return { text: '', toolCalls: [{ id: callId, name: tool.name, arguments: JSON.stringify(args) }] };
  }
  if (intent) return { text: phrases.noTool(phrases.intents[intent]), toolCalls: [] };
  return { text: isGreeting(userText) ? phrases.greeting : phrases.acknowledged, toolCalls: [] };
}

function lastUserJson(request: CompletionRequest): unknown {
  const index = lastIndexOfRole(request.messages, 'user');
  try {
    return index >= 0 ? JSON.parse(request.messages[index].content) : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON text of a structured answer; only the router's two formats are known here. */
function structured(request: CompletionRequest): string {
  const name = request.responseFormat?.name;
  const input = lastUserJson(request);
  if (name === ROUTING_ANSWER_SCHEMA_NAME) {
    const prompt = RoutingPrompt.safeParse(input);
    if (prompt.success) return JSON.stringify(routeOffline(prompt.data));
  } else if (name === DUPLICATE_ANSWER_SCHEMA_NAME) {
    const prompt = DuplicatePrompt.safeParse(input);
    if (prompt.success) return JSON.stringify(checkDuplicateOffline(prompt.data));
  } else {
    throw new ModelBadRequestError(`the offline model knows no structured output "${String(name)}"`, { name });
  }
  throw new ModelBadRequestError(`the offline model's "${name}" needs its prompt as JSON in the last user message`, {
    name,
  });
}

/**
 * With the masked tool strategy every definition is offered and `allowedTools` says which may be
 * called; the policies pick among what they see, so they see only those. Usage still counts
 * every definition sent.
 */
function withAllowedToolsOnly(request: CompletionRequest): CompletionRequest {
  if (request.allowedTools === undefined) return request;
  const allowed = new Set(request.allowedTools);
  return { ...request, tools: request.tools.filter((t) => allowed.has(t.name)) };
}

export class OfflineModelProvider implements ModelProvider {
  readonly name = 'offline';

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    throwIfAborted(request.signal);
    const { text, toolCalls } = request.responseFormat
      ? { text: structured(request), toolCalls: [] }
      : decide(withAllowedToolsOnly(request));
    const output = text + toolCalls.map((c) => c.name + c.arguments).join('');
    return {
      text,
      toolCalls,
      usage: estimateUsage(request, output),
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      model: OFFLINE_MODEL_NAME,
    };
  }
}
