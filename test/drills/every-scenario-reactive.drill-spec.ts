import { describeEveryScenario } from './harness/every-scenario-suite';

// Issue 21's first must-show, with the reactive scripted model (LOMO_MODEL_PROVIDER=reactive,
// libs/llm/src/reactive): the same scenario files, the same ideal figures.
describeEveryScenario('reactive', 'reactive scripted model');
