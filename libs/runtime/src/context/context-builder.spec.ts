import {
  existingTask,
  existingTurn,
  fold,
  taskDecider,
  turnDecider,
  type ExistingTask,
  type ExistingTurn,
  type TaskEvent,
  type TurnEvent,
} from '@lomo/domain';
import { estimateTokens } from '@lomo/llm';
import { InMemoryBlobStore } from '@lomo/blobs/testing';
import { ITEM, TURN, callOf, created, leased, started, step } from '../process/plan-turn.fixtures';
import { ContextBuilder, type ContextInput } from './context-builder';
import { renderHistoryStep, type HistoryStep } from './history';
import { PromptArchive } from './prompt-archive';
import { SYSTEM_RULES } from './system-rules';

// The prompt's layers in their fixed order (article §6.1), from pure inputs.

const tools = [{ name: 'notes.list', description: 'List notes', parameters: { type: 'object' } }];
const task = existingTask(fold(taskDecider, created));

function turnWith(steps: number, events: TurnEvent[] = []): ExistingTurn {
  const all: TurnEvent[] = [...started, leased(), ...events];
  for (let n = 1; n <= steps; n += 1) {
    all.push(step(n, [{ tool: 'notes.list' }], n === 1 ? [ITEM] : []));
    all.push({
      type: 'ToolCallStarted',
      data: { callId: callOf(n, 0), tool: 'notes.list', idempotencyKey: callOf(n, 0), attempt: 1 },
    });
    all.push({ type: 'ToolCallCompleted', data: { callId: callOf(n, 0), status: 'ok', result: { n } } });
  }
  return existingTurn(fold(turnDecider, all));
}

const historyOf = (t: ExistingTask, turn: ExistingTurn): HistoryStep[] =>
  turn.steps.map((s, i) => ({
    turnId: turn.turnId,
    turnIndex: 0,
    step: s.step,
    turnReason: i === 0 ? turn.reason : null,
    messages: renderHistoryStep(t, turn, s.step),
    tokens: 10,
  }));

const input = (over: Partial<ContextInput> = {}): ContextInput => ({
  task,
  turnReason: 'message',
  turnHasSteps: true,
  claimed: [],
  tools,
  domains: ['core'],
  loadable: ['image', 'video'],
  profile: { version: 3, text: 'Prefers warm colours.' },
  segments: [],
  recent: [],
  countTokens: estimateTokens,
  ...over,
});

describe('ContextBuilder', () => {
  it('puts the prefix, history segments, recent steps, the tail and this step’s input in that order', () => {
    const turn = turnWith(1);
    const prompt = new ContextBuilder().build(
      input({
        recent: historyOf(task, turn),
        segments: [
          {
            segmentId: '00000000-0000-4000-8000-0000000000f1',
            covers: { from: { turnId: TURN, step: 1 }, to: { turnId: TURN, step: 1 }, steps: 1 },
            text: 'The person said:\n- "the background is white"',
            tokens: 9,
          },
        ],
        claimed: [{ ...task.inbox[ITEM], text: 'one more thing' }],
      }),
    );
    expect(prompt.layers.map((l) => [l.layer, l.end - l.start])).toEqual([
      ['prefix', 1],
      ['history', 1],
      ['recent', 4],
      ['tail', 1],
      ['input', 1],
    ]);
    expect(prompt.messages[0]).toEqual({
      role: 'system',
      content: `${SYSTEM_RULES}\n\nAbout the person (profile version 3):\nPrefers warm colours.`,
    });
    expect(prompt.messages[1].content).toContain('"the background is white"');
    expect(prompt.messages[2]).toEqual({ role: 'system', content: 'Turn started (message).' });
    expect(prompt.messages.slice(3, 6).map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(prompt.messages[6].content).toMatch(/^Task goal: g\n/);
    expect(prompt.messages[6].content).toContain(
      'Tool domains you can call now: core (load others with tools.load: image, video)',
    );
    expect(prompt.messages[7]).toEqual({ role: 'user', content: 'one more thing' });
    // The prefix's tokens include the tool definitions sent.
    expect(prompt.layers[0].tokens).toBeGreaterThan(estimateTokens(prompt.messages[0].content));
  });

  it('the prefix is byte-identical whatever the task state and history; only the profile version or the tools change it', () => {
    const a = new ContextBuilder().build(input({ recent: historyOf(task, turnWith(2)) }));
    const other = existingTask(
      fold(taskDecider, [
        ...created,
        { type: 'BriefUpdated', data: { version: 1, brief: 'Blue', by: { kind: 'agent' } } },
      ] as TaskEvent[]),
    );
    const b = new ContextBuilder().build(input({ task: other, recent: historyOf(other, turnWith(5)) }));
    expect(b.messages[0]).toEqual(a.messages[0]);
    expect(b.tools).toEqual(a.tools);
    const c = new ContextBuilder().build(input({ profile: { version: 4, text: 'Prefers warm colours.' } }));
    expect(c.messages[0]).not.toEqual(a.messages[0]);
  });

  it('a turn with no step yet starts with its marker before the tail', () => {
    const prompt = new ContextBuilder().build(input({ turnHasSteps: false, turnReason: 'continuation' }));
    const recent = prompt.layers.find((l) => l.layer === 'recent')!;
    expect(prompt.messages.slice(recent.start, recent.end)).toEqual([
      { role: 'system', content: 'Turn started (continuation).' },
    ]);
  });

  it('a call whose outcome is unknown is shown as such, so the model can check before repeating it', () => {
    const turn = existingTurn(
      fold(turnDecider, [
        ...started,
        leased(),
        step(1, [{ tool: 'notes.append_line' }]),
        {
          type: 'ToolCallStarted',
          data: { callId: callOf(1, 0), tool: 'notes.append_line', idempotencyKey: callOf(1, 0), attempt: 1 },
        },
        {
          type: 'ToolCallOutcomeUnknown',
          data: { callId: callOf(1, 0), reason: 'started_without_result_not_idempotent' },
        },
      ]),
    );
    const rendered = renderHistoryStep(task, turn, 1);
    expect(JSON.parse(rendered.at(-1)?.content ?? 'null')).toMatchObject({ ok: false, outcome: 'unknown' });
  });
});

describe('PromptArchive', () => {
  it('stores the shared prefix once and reads every prompt back exactly, with its layers', async () => {
    const blobs = new InMemoryBlobStore();
    const archive = new PromptArchive(blobs);
    const builder = new ContextBuilder();
    const first = builder.build(input({ recent: historyOf(task, turnWith(1)) }));
    const second = builder.build(input({ recent: historyOf(task, turnWith(2)) }));
    const [a, b] = [await archive.store(first), await archive.store(second)];
    expect(await archive.load(a)).toEqual(first);
    expect(await archive.load(b)).toEqual(second);
    expect(blobs.puts.filter((t) => t.includes('prefix'))).toHaveLength(1);
  });

  it('a chain of prompts is stored as deltas (whole again every 32) and every one reads back exactly', async () => {
    const blobs = new InMemoryBlobStore();
    const archive = new PromptArchive(blobs);
    const builder = new ContextBuilder();
    const refs = [];
    const prompts = [];
    for (let n = 1; n <= 40; n += 1) {
      const prompt = builder.build(input({ recent: historyOf(task, turnWith(n)) }));
      prompts.push(prompt);
      refs.push(await archive.store(prompt, 'task-1'));
    }
    for (let i = 0; i < prompts.length; i += 1) expect(await archive.load(refs[i])).toEqual(prompts[i]);
    // A delta holds what is new: far smaller than the whole prompt of step 40.
    const sizes = refs.map((r) => r.bytes);
    expect(sizes[39]).toBeLessThan(sizes[33] / 2);
    // A missing base makes the prompts built on it unreadable (purged), never wrong.
    await blobs.delete(refs[34].hash);
    expect(await archive.load(refs[35])).toBeUndefined();
    expect(await archive.load(refs[33])).toEqual(prompts[33]);
  });
});
