// Test support for @lomo/tools: a manual timer, tool contexts, and the drills' effect log.
export { ManualTimer } from './manual-timer';
export { makeToolContext, TEST_WORKSPACE_ID, TEST_TASK_ID, TEST_TURN_ID } from './tool-context';
export {
  JsonlEffectSink,
  readEffectLog,
  countEffectsByKey,
  type EffectLine,
  type EffectSink,
} from './effects/effect-sink';
export { recordEffects, recordEffectsIn, type RecordEffectsOptions } from './effects/record-effects';
export { seedStartedCall } from './started-call';
export * from './tool-store.contracts';
