import type { CommittedStep, ToolCall } from '@lomo/domain';
import { diffDecision, replayedDecision } from './decision-diff';

const call = (tool: string, args: unknown, done: Partial<ToolCall> = {}): ToolCall => ({
  callId: `t:1:${tool}`,
  tool,
  step: 1,
  index: 0,
  arguments: args as ToolCall['arguments'],
  status: 'completed',
  attempts: 1,
  outcome: 'ok',
  result: { ok: true },
  completedAfterClose: false,
  ...done,
});

const recorded = (reply: string, calls: ToolCall[]): CommittedStep => ({
  step: 1,
  reply,
  callIds: calls.map((c) => c.callId),
  calls,
  consumedItemIds: [],
  usage: { inputTokens: 1, outputTokens: 1 },
  promptRef: { hash: 'h', bytes: 1, contentType: 'x' },
  finishReason: calls.length > 0 ? 'tool_calls' : 'stop',
  context: null,
});

describe('a replayed decision against the recorded step', () => {
  it('the same reply and the same calls (arguments in another key order) reuse the recorded outcomes', () => {
    const step = recorded('Drawing.', [
      call('image.generate', { prompt: 'fox', size: 'l' }, { result: { jobId: 'j1' } }),
    ]);

    const diff = diffDecision(
      step,
      replayedDecision('Drawing.', [{ id: 'x', name: 'image.generate', arguments: '{"size":"l","prompt":"fox"}' }]),
    );

    expect(diff).toEqual({
      reply: { recorded: 'Drawing.', replayed: 'Drawing.', equal: true },
      toolCalls: [
        {
          callId: 't:1:image.generate',
          tool: 'image.generate',
          recorded: { prompt: 'fox', size: 'l' },
          replayed: { size: 'l', prompt: 'fox' },
          status: 'reused',
          outcome: { status: 'ok', result: { jobId: 'j1' } },
        },
      ],
      diverged: false,
      stubbed: false,
    });
  });

  it('a call with other arguments is stubbed and the recorded one not called: a divergence', () => {
    const step = recorded('', [call('notes.create', { title: 'a' })]);

    const diff = diffDecision(
      step,
      replayedDecision('', [{ id: 'x', name: 'notes.create', arguments: '{"title":"b"}' }]),
    );

    expect(diff.toolCalls.map((c) => [c.tool, c.status])).toEqual([
      ['notes.create', 'stubbed'],
      ['notes.create', 'not_called'],
    ]);
    expect(diff).toMatchObject({ diverged: true, stubbed: true });
  });

  it('the same call whose result the record does not have is stubbed, without a divergence', () => {
    const step = recorded('', [call('image.generate', { prompt: 'fox' }, { status: 'intended', outcome: null })]);

    const diff = diffDecision(
      step,
      replayedDecision('', [{ id: 'x', name: 'image.generate', arguments: '{"prompt":"fox"}' }]),
    );

    expect(diff.toolCalls).toEqual([
      {
        callId: 't:1:image.generate',
        tool: 'image.generate',
        recorded: { prompt: 'fox' },
        replayed: { prompt: 'fox' },
        status: 'stubbed',
      },
    ]);
    expect(diff).toMatchObject({ diverged: false, stubbed: true });
  });

  it('an outcome the record lost is reused as unknown, an error as the error', () => {
    const step = recorded('', [
      call(
        'a.x',
        {},
        { status: 'unknown', outcome: null, unknownReason: 'lost_after_start' as ToolCall['unknownReason'] },
      ),
      call('b.y', {}, { outcome: 'error', error: { code: 'E', message: 'no', retriable: false } as ToolCall['error'] }),
    ]);

    const diff = diffDecision(
      step,
      replayedDecision('', [
        { id: '1', name: 'a.x', arguments: '' },
        { id: '2', name: 'b.y', arguments: '{}' },
      ]),
    );

    expect(diff.toolCalls.map((c) => c.outcome)).toEqual([
      { status: 'unknown', reason: 'lost_after_start' },
      { status: 'error', result: { code: 'E', message: 'no', retriable: false } },
    ]);
  });

  it('another reply alone is a divergence', () => {
    expect(diffDecision(recorded('Yes.', []), replayedDecision('No.', []))).toMatchObject({
      reply: { equal: false },
      diverged: true,
      stubbed: false,
    });
  });
});
