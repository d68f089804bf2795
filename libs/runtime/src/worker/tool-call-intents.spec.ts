import { INVALID_TOOL_NAME, toIntents } from './tool-call-intents';

const TURN = '00000000-0000-4000-8000-00000000000b';

describe('tool-call intents from a model reply', () => {
  it('use the runtime’s call ids, keep JSON arguments parsed and broken ones as text', () => {
    expect(
      toIntents(
        [
          { id: 'vendor_1', name: 'notes.list', arguments: '{"limit":2}' },
          { id: 'vendor_2', name: 'notes.create', arguments: '{"title": ' },
          { id: 'vendor_3', name: 'Bad Name!', arguments: '' },
        ],
        TURN,
        3,
      ),
    ).toEqual([
      { callId: `${TURN}:3:0`, tool: 'notes.list', arguments: { limit: 2 } },
      { callId: `${TURN}:3:1`, tool: 'notes.create', arguments: '{"title": ' },
      { callId: `${TURN}:3:2`, tool: INVALID_TOOL_NAME, arguments: {} },
    ]);
  });
});
