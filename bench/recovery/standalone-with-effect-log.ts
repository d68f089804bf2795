import { setTimeout as sleep } from 'node:timers/promises';
import { runApp } from '@lomo/platform';
import type { ToolDecorator } from '@lomo/tools';
import { JsonlEffectSink, recordEffectsIn } from '@lomo/tools/testing';
import { StandaloneModule } from '../../apps/standalone/src/standalone.module';

// The standalone app as `npm run bench:recovery` runs it: every real tool effect is also written,
// with its idempotency key, to BENCH_EFFECT_LOG (as the drills do, see
// test/distributed/multi-process/entries/executor-with-effect-log.ts), and every tool call takes
// BENCH_TOOL_DELAY_MS, half before its effect and half after it, so a kill finds turns inside a
// call on both sides of the effect.
const effectLog = process.env.BENCH_EFFECT_LOG;
if (effectLog === undefined || effectLog === '') throw new Error('BENCH_EFFECT_LOG must name the effect log file');
const delayMs = Number(process.env.BENCH_TOOL_DELAY_MS ?? '3000');
if (!Number.isInteger(delayMs) || delayMs < 0) throw new Error('BENCH_TOOL_DELAY_MS must be a whole number of ms');

const record = recordEffectsIn(new JsonlEffectSink(effectLog));
const decorateTools: ToolDecorator = (tool, traits) => {
  const recorded = record(tool, traits);
  return {
    ...recorded,
    async run(input, context) {
      await sleep(delayMs / 2);
      const result = await recorded.run(input, context);
      await sleep(delayMs / 2);
      return result;
    },
  };
};
runApp('standalone', (config, logger) => StandaloneModule.register(config, { logger, executor: { decorateTools } }));
