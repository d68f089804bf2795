/**
 * Prompts as the runtime builds them (libs/runtime/src/context/context-builder.ts): the system
 * rules, earlier turns in full behind their turn markers, the tail (task state, change notices,
 * recalled memories) and this step's input. The specs build each case twice, with and without
 * the one line a rule reads.
 */
import type { ChatMessage, ModelToolCall, ToolSpec } from '../model-provider.port';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const itemId = { type: 'string' };

export const TOOLS: ToolSpec[] = [
  {
    name: 'brief.update',
    description: 'Record the approved direction',
    parameters: object({ brief: { type: 'string' } }, ['brief']),
  },
  {
    name: 'checklist.plan',
    description: 'Plan the execution checklist',
    parameters: object(
      {
        items: {
          type: 'array',
          items: object(
            { itemId, title: { type: 'string' }, needsConfirmation: { type: 'boolean' }, output: { type: 'object' } },
            ['itemId', 'title'],
          ),
        },
      },
      ['items'],
    ),
  },
  {
    name: 'checklist.update',
    description: 'Change one checklist item',
    parameters: object({ itemId, status: { type: 'string' }, evidence: { type: 'object' } }, ['itemId', 'status']),
  },
  {
    name: 'document.write',
    description: 'Write a whole document. Without artifactId it creates a new document in the workspace.',
    parameters: object({ artifactId: { type: 'string' }, title: { type: 'string' }, text: { type: 'string' } }, [
      'text',
    ]),
  },
  {
    name: 'document.read',
    description: 'Read a document of the workspace',
    parameters: object({ artifactId: { type: 'string' } }, ['artifactId']),
  },
  {
    name: 'document.edit',
    description: 'Edit parts of a document: each edit replaces an exact snippet `old` by `new`.',
    parameters: object(
      {
        artifactId: { type: 'string' },
        baseVersion: { type: 'integer' },
        edits: { type: 'array', items: object({ old: { type: 'string' }, new: { type: 'string' } }) },
      },
      ['artifactId', 'baseVersion', 'edits'],
    ),
  },
  {
    name: 'image.generate',
    description: 'Make one image (picture, poster, illustration, photo) from a text prompt.',
    parameters: object({ prompt: { type: 'string' } }, ['prompt']),
  },
];

export const RULES: ChatMessage = { role: 'system', content: 'You are Lomo, a creative agent.' };
export const marker = (reason: string): ChatMessage => ({ role: 'system', content: `Turn started (${reason}).` });
export const person = (content: string): ChatMessage => ({ role: 'user', content });

/** One committed step: the model's call and the runtime's rendering of its result. */
export function step(id: string, name: string, args: Record<string, unknown>, result: unknown): ChatMessage[] {
  const call: ModelToolCall = { id, name, arguments: JSON.stringify(args) };
  return [
    { role: 'assistant', content: '', toolCalls: [call] },
    { role: 'tool', toolCallId: id, content: JSON.stringify(result) },
  ];
}

export const ok = (result: Record<string, unknown>) => ({ ok: true, result });

/** The task-state message of the tail (describeTask), with optional checklist lines. */
export function taskState(goal: string, checklist: readonly string[] = [], language = 'en'): ChatMessage {
  const lines = [`Task goal: ${goal}`, `Language of the person: ${language}`, 'Task kind: task'];
  if (checklist.length > 0) lines.push('Checklist:', ...checklist);
  lines.push('Tool domains you can call now: core, document, image');
  return { role: 'system', content: lines.join('\n') };
}
