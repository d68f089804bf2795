import {
  existingTask,
  existingTurn,
  fold,
  noticesConsumedAt,
  taskDecider,
  turnDecider,
  type ExistingTurn,
  type TaskEvent,
  type TurnEvent,
} from '@lomo/domain';
import type { BlobRef, BlobStore } from '@lomo/blobs';
import { createHash } from 'node:crypto';
import { ITEM, TURN, callOf, created, leased, started, step } from '../process/plan-turn.fixtures';
import { ContextBuilder } from './context-builder';
import { PromptArchive } from './prompt-archive';
import { SYSTEM_RULES } from './system-rules';

const tools = [{ name: 'notes.list', description: 'List notes', parameters: { type: 'object' } }];
const task = existingTask(fold(taskDecider, created));

function turnWith(steps: number): ExistingTurn {
  const events: TurnEvent[] = [...started, leased()];
  for (let n = 1; n <= steps; n += 1) {
    events.push(step(n, [{ tool: 'notes.list' }], n === 1 ? [ITEM] : []));
    events.push({
      type: 'ToolCallStarted',
      data: { callId: callOf(n, 0), tool: 'notes.list', idempotencyKey: callOf(n, 0), attempt: 1 },
    });
    events.push({ type: 'ToolCallCompleted', data: { callId: callOf(n, 0), status: 'ok', result: { n } } });
  }
  return existingTurn(fold(turnDecider, events));
}

describe('ContextBuilder', () => {
  it('puts rules first, then the task, then history with each result, then the claimed items', () => {
    const prompt = new ContextBuilder(8).build({ task, turn: turnWith(1), step: 2, claimed: [], tools });
    expect(prompt.messages).toEqual([
      { role: 'system', content: SYSTEM_RULES },
      { role: 'system', content: expect.stringContaining('Task goal: g') },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'reply 1', toolCalls: [{ id: callOf(1, 0), name: 'notes.list', arguments: '{}' }] },
      { role: 'tool', toolCallId: callOf(1, 0), content: '{"ok":true,"result":{"n":1}}' },
    ]);
    expect(prompt.tools).toBe(tools);
  });

  it('shows the change notices a step consumed as "Workspace changes since you last looked", before its messages, and keeps them on later steps', () => {
    const artifactId = '00000000-0000-4000-8000-0000000000aa';
    const noticeId = '00000000-0000-4000-8000-0000000000ab';
    const withNotice = existingTask(
      fold(taskDecider, [
        ...created,
        {
          type: 'ArtifactChangeNoticed',
          data: {
            noticeId,
            artifactId,
            fromVersion: 3,
            toVersion: 4,
            by: { kind: 'person', userId: 'u1' },
            nodes: ['A', 'B'],
            summary: '2 snippets, +40 −12 chars',
          },
        },
        { type: 'ArtifactChangeNoticesConsumed', data: { turnId: TURN, step: 1, noticeIds: [noticeId] } },
      ] satisfies TaskEvent[]),
    );
    const notices = noticesConsumedAt(withNotice, TURN, 1);
    const builder = new ContextBuilder(8);
    const first = builder.build({ task: withNotice, turn: turnWith(0), step: 1, claimed: [], notices, tools });
    const line = `- artifact ${artifactId} v3→v4 (nodes A, B; 2 snippets, +40 −12 chars; by the person u1)`;
    expect(first.messages.at(-1)).toEqual({
      role: 'system',
      content: expect.stringContaining('Workspace changes since you last looked'),
    });
    expect(first.messages.at(-1)?.content).toContain(line);
    // Step 2 renders step 1 as history, the notice included, so its prompt extends step 1's.
    const second = builder.build({ task: withNotice, turn: turnWith(1), step: 2, claimed: [], tools });
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    expect(second.messages.filter((m) => String(m.content).includes(line))).toHaveLength(1);
  });

  it('renders only the last steps of a long turn, so a prompt does not grow with the turn', () => {
    const builder = new ContextBuilder(3);
    const early = builder.build({ task, turn: turnWith(4), step: 5, claimed: [], tools });
    const late = builder.build({ task, turn: turnWith(300), step: 301, claimed: [], tools });
    expect(late.messages).toHaveLength(early.messages.length);
    expect(late.messages[1].content).toContain('297 earlier step(s)');
    expect(late.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual([
      'reply 298',
      'reply 299',
      'reply 300',
    ]);
  });

  it('tells the model when a call’s outcome is unknown', () => {
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
    const prompt = new ContextBuilder(8).build({ task, turn, step: 2, claimed: [], tools });
    expect(JSON.parse(prompt.messages.at(-1)?.content ?? 'null')).toMatchObject({ ok: false, outcome: 'unknown' });
  });
});

class MemoryBlobs implements BlobStore {
  readonly puts: string[] = [];
  private readonly blobs = new Map<string, Buffer>();
  async put(content: Buffer | string, contentType: string): Promise<BlobRef> {
    const bytes = Buffer.from(content);
    const hash = createHash('sha256').update(bytes).digest('hex');
    this.blobs.set(hash, bytes);
    this.puts.push(contentType);
    return { hash, bytes: bytes.length, contentType };
  }
  async get(hash: string) {
    return this.blobs.get(hash);
  }
  async has(hash: string) {
    return this.blobs.has(hash);
  }
  async delete(hash: string) {
    return this.blobs.delete(hash);
  }
}

describe('PromptArchive', () => {
  it('stores the shared prefix once and reads every prompt back exactly', async () => {
    const blobs = new MemoryBlobs();
    const archive = new PromptArchive(blobs);
    const builder = new ContextBuilder(8);
    const first = builder.build({ task, turn: turnWith(1), step: 2, claimed: [], tools });
    const second = builder.build({ task, turn: turnWith(2), step: 3, claimed: [], tools });
    const [a, b] = [await archive.store(first), await archive.store(second)];
    expect(await archive.load(a)).toEqual(first);
    expect(await archive.load(b)).toEqual(second);
    expect(blobs.puts.filter((t) => t.includes('prefix'))).toHaveLength(1);
  });
});
