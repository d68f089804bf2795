import { loadConfig } from '@lomo/config';
import { ReactiveModelProvider } from '@lomo/llm';
import { ReplayModelRefusedError } from './replay-errors';
import { REPLAY_MODELS, replayModelFromConfig } from './replay-setup-from-config';

const config = loadConfig({ NODE_ENV: 'test', LOMO_DATA_DIR: '/tmp/lomo-replay-model-spec' });

describe('the models a replay may ask (lomo turn replay --model, replayTurn(model:))', () => {
  it('offers the recorded replies, the offline policy, the reactive drill model, an endpoint and a script', () => {
    expect([...REPLAY_MODELS]).toEqual(['recorded', 'offline', 'reactive', 'openai', 'scripted']);
  });

  it('reactive is the drills’ scripted model, so a drill’s step can be replayed with a patched prompt', () => {
    expect(replayModelFromConfig('reactive', config)).toBeInstanceOf(ReactiveModelProvider);
  });

  it('refuses an endpoint that is not configured, a script that is missing and a name it does not know', () => {
    expect(() => replayModelFromConfig('openai', config)).toThrow(ReplayModelRefusedError);
    expect(() => replayModelFromConfig('scripted', config)).toThrow(ReplayModelRefusedError);
    expect(() => replayModelFromConfig('gpt', config)).toThrow(
      /"gpt" is none of recorded, offline, reactive, openai, scripted/,
    );
  });
});
