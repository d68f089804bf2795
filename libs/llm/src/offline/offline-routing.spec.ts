import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  DUPLICATE_ANSWER_SCHEMA_NAME,
  DuplicateAnswer,
  ROUTING_ANSWER_SCHEMA_NAME,
  RoutingAnswer,
  type DuplicatePrompt,
  type RoutingPrompt,
} from '@lomo/contracts';
import { completeStructured } from '../structured/structured-output';
import { OfflineModelProvider } from './offline-model-provider';

const model = new OfflineModelProvider();
const ask = (content: unknown) => ({
  messages: [
    { role: 'system' as const, content: 'Route the message.' },
    { role: 'user' as const, content: JSON.stringify(content) },
  ],
  tools: [],
});

describe('OfflineModelProvider: structured routing answers', () => {
  it('answers route_message with a valid RoutingAnswer from the prompt of the last user message', async () => {
    const prompt: RoutingPrompt = {
      message: { text: '幫我畫一張貓的圖', language: 'zh-Hant', channel: 'ui' },
      candidates: [],
      pendingClarification: null,
    };
    const result = await completeStructured(model, ask(prompt), {
      name: ROUTING_ANSWER_SCHEMA_NAME,
      schema: RoutingAnswer,
    });
    expect(result).toMatchObject({ attempts: 1, model: 'lomo-offline-policy-1', value: { outcome: 'lightweight' } });
  });

  it('answers check_duplicate with a valid DuplicateAnswer', async () => {
    const prompt: DuplicatePrompt = {
      goal: 'kite festival poster',
      language: 'en',
      candidates: [{ ref: 't4', goal: 'Kite festival poster', summary: null, score: 0.9 }],
    };
    const result = await completeStructured(model, ask(prompt), {
      name: DUPLICATE_ANSWER_SCHEMA_NAME,
      schema: DuplicateAnswer,
    });
    expect(result.value).toEqual({ verdict: 'reuse', taskRef: 't4' });
  });

  it('refuses an unknown format or a prompt that is not the expected JSON with MODEL_BAD_REQUEST', async () => {
    const format = { name: 'something_else', schema: { type: 'object' } };
    await expect(model.complete({ ...ask({}), responseFormat: format })).rejects.toMatchObject({
      code: 'MODEL_BAD_REQUEST',
    });
    await expect(
      model.complete({ ...ask({ nope: 1 }), responseFormat: { name: ROUTING_ANSWER_SCHEMA_NAME, schema: {} } }),
    ).rejects.toMatchObject({ code: 'MODEL_BAD_REQUEST' });
  });
});

// The demo policy must be generic rules, not a lookup of the eval set: no fixture sentence may
// appear in its source.
const FIXTURES = join(__dirname, '../../../../test/fixtures/routing');
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
const stringsOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(stringsOf)
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(stringsOf)
        : [];

it('contains no sentence of test/fixtures/routing', () => {
  const source = readdirSync(__dirname)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
    .map((f) => readFileSync(join(__dirname, f), 'utf8'))
    .join('\n');
  const sentences = filesUnder(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => stringsOf(JSON.parse(readFileSync(f, 'utf8'))))
    // Sentences, not ids or labels: several words, or a Han run of five characters or more.
    .filter((s) => s.trim().split(/\s+/).length >= 3 || /\p{Script=Han}{5,}/u.test(s));
  expect(sentences.length).toBeGreaterThan(0);
  expect(sentences.filter((s) => source.includes(s.trim()))).toEqual([]);
});
