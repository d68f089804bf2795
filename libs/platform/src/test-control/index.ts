export { SimulatedClock } from './simulated-clock';
export {
  TestControlState,
  faultKeys,
  type TestFaults,
  type FaultListener,
  type TestControlSnapshot,
} from './test-control-state';
export { createTestControl, TEST_CONTROL_STATE } from './create-test-control';
