import { runApp } from '@lomo/platform';
import { JsonlEffectSink, recordEffectsIn } from '@lomo/tools/testing';
import { ExecutorAppModule } from '../../../../apps/executor/src/executor-app.module';

// The executor app as the drills run it: every real tool effect is also written, with its
// idempotency key, to the JSONL file named by DRILL_EFFECT_LOG, so a drill can count effects per key.
const effectLog = process.env.DRILL_EFFECT_LOG;
if (effectLog === undefined || effectLog === '') throw new Error('DRILL_EFFECT_LOG must name the effect log file');
const decorateTools = recordEffectsIn(new JsonlEffectSink(effectLog));
runApp('executor', (config, logger) => ExecutorAppModule.register(config, { logger, executor: { decorateTools } }));
