import type { ChatMessage, ToolSpec } from '../model-provider.port';
import { OfflineModelProvider } from './offline-model-provider';

// A large result is read back once, page 1, before the policy answers.

const REF = 'ab'.repeat(32);
const tools: ToolSpec[] = [
  { name: 'notes.list', description: 'List the notes', parameters: { type: 'object', properties: {} } },
  {
    name: 'result.read',
    description: 'Read a stored result page by page',
    parameters: { type: 'object', properties: { ref: { type: 'string' }, page: { type: 'integer' } } },
  },
];
const stored = JSON.stringify({ ok: true, stored: true, result: { ref: REF, pages: 3, totalChars: 20_000 } });
const base: ChatMessage[] = [
  { role: 'system', content: 'rules' },
  { role: 'system', content: 'Turn started (message).' },
  { role: 'user', content: 'list my notes' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'notes.list', arguments: '{}' }] },
  { role: 'tool', toolCallId: 'a', content: stored },
];

describe('the offline policy and a stored result', () => {
  it('reads its first page with result.read, then answers', async () => {
    const model = new OfflineModelProvider();
    const first = await model.complete({ messages: base, tools });
    expect(first.toolCalls).toEqual([
      { id: expect.any(String), name: 'result.read', arguments: JSON.stringify({ ref: REF, page: 1 }) },
    ]);
    const after = await model.complete({
      messages: [
        ...base,
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'b', name: 'result.read', arguments: JSON.stringify({ ref: REF, page: 1 }) }],
        },
        {
          role: 'tool',
          toolCallId: 'b',
          content: JSON.stringify({ ok: true, result: { ref: REF, page: 1, pages: 3, text: '[...]' } }),
        },
      ],
      tools,
    });
    expect(after.toolCalls).toEqual([]);
    expect(after.text).not.toBe('');
  });

  it('without result.read offered it answers at once', async () => {
    const reply = await new OfflineModelProvider().complete({ messages: base, tools: tools.slice(0, 1) });
    expect(reply.toolCalls).toEqual([]);
  });
});
