import cl100k from 'gpt-tokenizer/cjs/encoding/cl100k_base';
import o200k from 'gpt-tokenizer/cjs/encoding/o200k_base';
import type { ChatMessage, ToolSpec } from '../model-provider.port';
import { estimateTokens } from '../token-estimate';
import { REPLY_PRIMING_TOKENS, TOKENS_PER_MESSAGE, type Tokenizer } from '../tokenizer.port';
import { BpeTokenizer } from './bpe-tokenizer';
import { serializeTool } from './chat-tokenizer';
import { CountCache } from './count-cache';
import { EstimateTokenizer } from './estimate-tokenizer';
import { encodingForModel, tokenizerFor, tokenizerForModel } from './tokenizer-for';

const plain = { disallowedSpecial: new Set<string>() };

const SAMPLES = [
  'hello world',
  'tiktoken is great!',
  '做一张白色背景的品牌海报，三种尺寸。',
  'Une vidéo de 10 secondes — façon « storyboard » 🎬',
  '{"name":"notes.create","arguments":{"text":"buy milk","tags":["a","b"]}}',
  'a person typed <|endoftext|> and <|im_start|> into the brief',
  '   leading and trailing whitespace\n\n\ttabs   ',
];

const messages: ChatMessage[] = [
  { role: 'system', content: 'You are Lomo, a creative agent. Follow the brief.' },
  { role: 'user', content: 'Make three poster sizes with a white background.' },
  {
    role: 'assistant',
    content: 'Recording the brief.',
    toolCalls: [{ id: 'call_1', name: 'brief.record', arguments: '{"goal":"posters","sizes":3}' }],
  },
  { role: 'tool', toolCallId: 'call_1', content: '{"ok":true,"briefId":"b1"}' },
];

const tools: ToolSpec[] = [
  {
    name: 'brief.record',
    description: 'Record the brief the person approved.',
    parameters: { type: 'object', properties: { goal: { type: 'string' }, sizes: { type: 'integer' } } },
  },
  { name: 'notes.create', description: 'Write a note', parameters: { type: 'object', properties: {} } },
];

/** The rule of tokenizer.port.ts, written out independently of ChatTokenizer. */
function byTheRule(t: Pick<Tokenizer, 'count'>, msgs: readonly ChatMessage[], defs: readonly ToolSpec[]): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const m of msgs) {
    total += TOKENS_PER_MESSAGE + t.count(m.role) + t.count(m.content);
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) total += t.count(c.name) + t.count(c.arguments);
  }
  for (const d of defs)
    total += t.count(JSON.stringify({ name: d.name, description: d.description, parameters: d.parameters }));
  return total;
}

describe('BpeTokenizer', () => {
  it.each([
    ['o200k_base', o200k],
    ['cl100k_base', cl100k],
  ] as const)('counts known strings exactly as the %s encoder does', (encoding, encoder) => {
    const tokenizer = new BpeTokenizer(encoding);
    for (const text of SAMPLES) {
      expect({ text, tokens: tokenizer.count(text) }).toEqual({ text, tokens: encoder.encode(text, plain).length });
    }
    // The OpenAI cookbook's example, and the long path through the cache.
    expect(tokenizer.count('tiktoken is great!')).toBe(6);
    const long = SAMPLES.join('\n').repeat(40);
    expect(tokenizer.count(long)).toBe(encoder.encode(long, plain).length);
    expect(tokenizer.count(long)).toBe(encoder.encode(long, plain).length);
    expect(tokenizer.count('')).toBe(0);
  });

  it('loads its rank table on the first count, not when it is made', () => {
    const tokenizer = new BpeTokenizer('cl100k_base');
    expect(tokenizer.isLoaded).toBe(false);
    tokenizer.count('hello');
    expect(tokenizer.isLoaded).toBe(true);
  });

  it('counts a chat without tools as the package formats one (the cookbook rule)', () => {
    const chat = messages.filter((m) => m.role !== 'assistant' && m.role !== 'tool');
    const asPackage = chat.map((m) => ({ role: m.role as 'system' | 'user', content: m.content }));
    expect(new BpeTokenizer('o200k_base').countMessages(chat)).toBe(o200k.encodeChat(asPackage, 'gpt-4o').length);
    expect(new BpeTokenizer('cl100k_base').countMessages(chat)).toBe(cl100k.encodeChat(asPackage, 'gpt-4').length);
  });
});

describe('counting a chat request', () => {
  it.each([
    ['o200k_base', new BpeTokenizer('o200k_base')],
    ['cl100k_base', new BpeTokenizer('cl100k_base')],
    ['estimate', new EstimateTokenizer()],
  ] as const)('%s: the whole request is the sum of its parts by the documented rule', (_name, tokenizer) => {
    expect(tokenizer.countMessages(messages, tools)).toBe(byTheRule(tokenizer, messages, tools));
    const parts =
      messages.reduce((sum, m) => sum + tokenizer.countMessage(m), 0) +
      tokenizer.countTools(tools) +
      REPLY_PRIMING_TOKENS;
    expect(tokenizer.countMessages(messages, tools)).toBe(parts);
    expect(tokenizer.countMessages([], [])).toBe(REPLY_PRIMING_TOKENS);
    expect(tokenizer.countTools([])).toBe(0);
    // A tool call's name and arguments count; its id is not tokenized by the model.
    const [, , withCall] = messages;
    const bare = { role: 'assistant' as const, content: withCall.content };
    expect(tokenizer.countMessage(withCall) - tokenizer.countMessage(bare)).toBe(
      tokenizer.count('brief.record') + tokenizer.count('{"goal":"posters","sizes":3}'),
    );
    expect(tokenizer.countTools(tools)).toBe(tools.reduce((s, t) => s + tokenizer.count(serializeTool(t)), 0));
  });
});

describe('picking the tokenizer', () => {
  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini', 'o200k_base'],
    ['chatgpt-4o-latest', 'o200k_base'],
    ['gpt-4.1-nano', 'o200k_base'],
    ['gpt-4.5-preview', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['gpt-5.1-codex', 'o200k_base'],
    ['o1', 'o200k_base'],
    ['o3-mini', 'o200k_base'],
    ['o4-mini-2025-04-16', 'o200k_base'],
    ['gpt-oss:20b', 'o200k_base'],
    ['openai/gpt-4o', 'o200k_base'],
    ['ft:gpt-4o-mini:acme::abc123', 'o200k_base'],
    ['GPT-4O', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-turbo-2024-04-09', 'cl100k_base'],
    ['gpt-4-0613', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['gpt-35-turbo', 'cl100k_base'],
    ['text-embedding-3-small', 'cl100k_base'],
    ['llama3.1:8b', 'estimate'],
    ['qwen2.5-72b-instruct', 'estimate'],
    ['deepseek-chat', 'estimate'],
    ['claude-sonnet-4', 'estimate'],
    ['omni-unknown', 'estimate'],
    ['gpt-4x', 'estimate'],
    ['', 'estimate'],
  ])('%s → %s', (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });

  it('uses the documented estimate for models whose tokenizer is not shipped', () => {
    const tokenizer = tokenizerForModel('llama3.1:8b');
    expect(tokenizer).toMatchObject({ encoding: 'estimate', exact: false });
    for (const text of SAMPLES) expect(tokenizer.count(text)).toBe(estimateTokens(text));
  });

  it('follows the provider: the estimate offline and scripted, the model’s encoding for openai', () => {
    expect(tokenizerFor().encoding).toBe('estimate');
    expect(tokenizerFor({ provider: 'scripted', model: 'gpt-4o' }).encoding).toBe('estimate');
    expect(tokenizerFor({ provider: 'openai' })).toMatchObject({ encoding: 'o200k_base', exact: true });
    expect(tokenizerFor({ provider: 'openai', model: 'gpt-4' }).encoding).toBe('cl100k_base');
    expect(tokenizerFor({ provider: 'openai', model: 'mistral-large' }).encoding).toBe('estimate');
    // One instance per encoding, so the count cache is shared.
    expect(tokenizerForModel('gpt-4o')).toBe(tokenizerForModel('gpt-5-mini'));
  });
});

describe('CountCache', () => {
  it('counts a long text once and a short text every time', () => {
    const cache = new CountCache({ minLength: 10 });
    const counter = jest.fn((t: string) => t.length);
    const long = 'x'.repeat(50);
    expect(cache.count(long, counter)).toBe(50);
    expect(cache.count(`${'x'.repeat(49)}x`, counter)).toBe(50);
    expect(counter).toHaveBeenCalledTimes(1);
    cache.count('short', counter);
    cache.count('short', counter);
    expect(counter).toHaveBeenCalledTimes(3);
    expect(cache.size).toBe(1);
  });

  it('stays within its entry and character bounds, least recently used out first', () => {
    const cache = new CountCache({ minLength: 1, maxEntries: 3, maxChars: 100 });
    const counter = jest.fn((t: string) => t.length);
    for (const c of 'abcd') cache.count(c.repeat(10), counter);
    expect(cache.size).toBe(3);
    cache.count('b'.repeat(10), counter); // b is now the most recent; c is the oldest
    cache.count('e'.repeat(10), counter);
    counter.mockClear();
    cache.count('b'.repeat(10), counter);
    expect(counter).not.toHaveBeenCalled();
    cache.count('c'.repeat(10), counter);
    expect(counter).toHaveBeenCalledTimes(1);
    cache.count('z'.repeat(95), counter);
    expect(cache.heldChars).toBeLessThanOrEqual(100);
    // Longer than the whole cache: counted, never held.
    cache.count('y'.repeat(200), counter);
    expect(cache.heldChars).toBeLessThanOrEqual(100);
  });

  it('makes a repeated 20 kB prefix cost well under a millisecond per count', () => {
    const tokenizer = new BpeTokenizer('o200k_base');
    const prefix = SAMPLES.join('\n')
      .repeat(Math.ceil(20_000 / SAMPLES.join('\n').length))
      .slice(0, 20_000);
    const first = tokenizer.count(prefix);
    const rounds = 200;
    const started = performance.now();
    // A fresh string each time, as a context builder that rebuilds its layers would pass.
    for (let i = 0; i < rounds; i += 1) expect(tokenizer.count(prefix.slice(0, 19_999) + prefix[19_999])).toBe(first);
    expect((performance.now() - started) / rounds).toBeLessThan(0.5);
  });
});
