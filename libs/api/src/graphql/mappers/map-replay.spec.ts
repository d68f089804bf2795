import type { ReplayedStep as StepShape } from '@lomo/operator';
import { mapReplayedStep } from './map-replay';

const hidden = { purged: true as const, reason: 'forgotten' };

const step = (overrides: Partial<StepShape>): StepShape => ({
  step: 1,
  status: 'replayed',
  context: { status: 'reproduced', hash: 'h1' },
  forgotten: { flagged: false, reason: null },
  concurrent: [],
  patched: [],
  reply: { recorded: 'done', replayed: 'done', equal: true },
  toolCalls: [],
  diverged: false,
  ...overrides,
});

describe('a replay report as GraphQL serves it', () => {
  it('shows a forgotten reply, arguments and outcome as purged with the reason, never their text', () => {
    const shown = mapReplayedStep(
      step({
        forgotten: { flagged: true, reason: 'forgotten' },
        reply: { recorded: hidden, replayed: hidden, equal: true },
        toolCalls: [
          {
            callId: 't:1:0',
            tool: 'notes.create',
            recorded: hidden,
            replayed: hidden,
            status: 'reused',
            outcome: hidden as never,
          },
        ],
      }),
    );

    expect(shown.reply).toEqual({
      recorded: { text: null, purged: true, purgedReason: 'forgotten' },
      replayed: { text: null, purged: true, purgedReason: 'forgotten' },
      equal: true,
    });
    expect(shown.toolCalls[0]).toMatchObject({
      recordedArguments: { text: null, purged: true },
      replayedArguments: { text: null, purged: true },
      outcome: { status: null, resultJson: null, purged: true, purgedReason: 'forgotten' },
    });
    expect(JSON.stringify(shown)).not.toContain('"text":"');
  });

  it('gives arguments and results as canonical JSON text, and a call only one side made a null on the other', () => {
    const shown = mapReplayedStep(
      step({
        diverged: true,
        toolCalls: [
          {
            callId: 't:1:0',
            tool: 'notes.create',
            recorded: { title: 'a', body: 'b' },
            replayed: { body: 'b', title: 'a' },
            status: 'reused',
            outcome: { status: 'ok', result: { noteId: 'n1' }, job: undefined },
          },
          { callId: null, tool: 'notes.delete', recorded: null, replayed: { noteId: 'n1' }, status: 'stubbed' },
          { callId: 't:1:1', tool: 'notes.list', recorded: {}, replayed: null, status: 'not_called' },
        ],
      }),
    );

    expect(shown.toolCalls).toEqual([
      {
        callId: 't:1:0',
        tool: 'notes.create',
        recordedArguments: { text: '{"body":"b","title":"a"}', purged: false, purgedReason: null },
        replayedArguments: { text: '{"body":"b","title":"a"}', purged: false, purgedReason: null },
        status: 'reused',
        outcome: {
          status: 'ok',
          resultJson: '{"noteId":"n1"}',
          reason: null,
          job: null,
          purged: false,
          purgedReason: null,
        },
      },
      {
        callId: null,
        tool: 'notes.delete',
        recordedArguments: null,
        replayedArguments: { text: '{"noteId":"n1"}', purged: false, purgedReason: null },
        status: 'stubbed',
        outcome: null,
      },
      {
        callId: 't:1:1',
        tool: 'notes.list',
        recordedArguments: { text: '{}', purged: false, purgedReason: null },
        replayedArguments: null,
        status: 'not_called',
        outcome: null,
      },
    ]);
  });

  it('names both hashes and the first differing layer of a context drift; an unknown outcome keeps its reason', () => {
    const shown = mapReplayedStep(
      step({
        context: { status: 'context_drift', rebuiltHash: 'r', storedHash: 's', firstDifferingLayer: 'recent' },
        toolCalls: [
          {
            callId: 't:1:0',
            tool: 'image.generate',
            recorded: {},
            replayed: {},
            status: 'reused',
            outcome: { status: 'unknown', reason: 'lease lost' },
          },
        ],
      }),
    );

    expect(shown.context).toEqual({
      status: 'context_drift',
      rebuiltHash: 'r',
      storedHash: 's',
      firstDifferingLayer: 'recent',
    });
    expect(shown.toolCalls[0].outcome).toMatchObject({ status: 'unknown', reason: 'lease lost', resultJson: null });
    expect(mapReplayedStep(step({ context: null, status: 'not_replayed' })).context).toBeNull();
  });
});
