import type { LomoConfig } from '@lomo/config';
import type { Logger } from '@lomo/observability';
import type { RuntimeOptions } from '@lomo/runtime';
import type { ToolRegistry } from '@lomo/tools';
import { modelProviderFrom, runtimeOptionsFromConfig, starterToolSpecs, tokenizerFromConfig } from '@lomo/application';
import { OfflineModelProvider, ReactiveModelProvider, type ModelProvider } from '@lomo/llm';
import { ReplayModelRefusedError } from './replay-errors';
import { parseReplayScript } from './replay-script';

/**
 * What a replay rebuilds an executor's prompts with, outside the executor (the `lomo` CLI, the
 * API's `replayTurn`): the executor's tool definitions with no service behind them, its runtime
 * options and tokenizer, all from the same configuration the executor reads.
 */
export function replaySetupFromConfig(
  config: LomoConfig,
  logger: Logger,
): { tools: ToolRegistry; options: RuntimeOptions; logger: Logger; tokenizer: { count(text: string): number } } {
  return {
    tools: starterToolSpecs({ generation: config.LOMO_GENERATION === 'on' }),
    options: runtimeOptionsFromConfig(config, 'replay'),
    logger,
    tokenizer: tokenizerFromConfig(config),
  };
}

export const REPLAY_MODELS = ['recorded', 'offline', 'reactive', 'openai', 'scripted'] as const;
export type ReplayModelName = (typeof REPLAY_MODELS)[number];

/**
 * The model a replay asks: `recorded` (the stored replies, no model), `offline` (the demo
 * policy), `reactive` (the drills' scripted model, which decides from the prompt alone: a prompt
 * patch shows at once whether a drill's step would go otherwise), `openai` (the OpenAI-compatible endpoint OPENAI_BASE_URL / OPENAI_API_KEY /
 * LOMO_MODEL configure, whatever LOMO_MODEL_PROVIDER says), `scripted` (a script file's text).
 */
export function replayModelFromConfig(name: string, config: LomoConfig, script?: string): 'recorded' | ModelProvider {
  switch (name as ReplayModelName) {
    case 'recorded':
      return 'recorded';
    case 'offline':
      return new OfflineModelProvider();
    case 'reactive':
      return new ReactiveModelProvider();
    case 'openai':
      if ((config.OPENAI_BASE_URL ?? '') === '' && (config.OPENAI_API_KEY ?? '') === '')
        throw new ReplayModelRefusedError('openai needs OPENAI_BASE_URL or OPENAI_API_KEY');
      return modelProviderFrom({ ...config, LOMO_MODEL_PROVIDER: 'openai' });
    case 'scripted':
      if (script === undefined) throw new ReplayModelRefusedError('scripted needs a script (--script <file>)');
      return parseReplayScript(script);
    default:
      throw new ReplayModelRefusedError(`"${name}" is none of ${REPLAY_MODELS.join(', ')}`);
  }
}
