import { describeEveryScenario } from './harness/every-scenario-suite';

// Issue 21's first must-show, with the offline model (the suite: harness/every-scenario-suite.ts).
describeEveryScenario('offline', 'offline model');
