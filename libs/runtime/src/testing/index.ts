// Test support for @lomo/runtime: a harness around real workers, a manual scheduler, scripted faults.
export { ManualScheduler } from './manual-scheduler';
export { ScriptedFaults, type Hang, type FaultMatcher } from './scripted-faults';
export {
  RuntimeHarness,
  HARNESS_WORKSPACE,
  HARNESS_USER,
  type HarnessOptions,
  type HarnessWorker,
  type WorkerOptions,
} from './runtime-harness';
