import type { BlobStore } from '@lomo/blobs';
import type { EventBus } from '@lomo/bus';
import type { Clock, IdGenerator, TestControl } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { ModelProvider } from '@lomo/llm';
import type { Logger } from '@lomo/observability';
import type { ToolRegistry } from '@lomo/tools';
import type { FaultInjector } from '../faults/fault-injector';
import type { RuntimeMetrics } from '../metrics/runtime-metrics';
import type { RuntimeOptions } from '../runtime-options';
import type { Scheduler } from '../timing/scheduler';
import type { PlanQuoter } from '../process/plan-budget';
import type { ProfileSnapshot } from '../context/profile-snapshot.port';
import type { HistorySummarizer } from '../context/summarizer';
import type { MemoryRecall } from '../context/memory-recall.port';

/** What a worker stands on; every part is a port, so tests swap in fakes and fault points. */
export interface RuntimeDeps {
  store: EventStore;
  bus: Pick<EventBus, 'publish'>;
  blobs: BlobStore;
  model: ModelProvider;
  tools: ToolRegistry;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  metrics: RuntimeMetrics;
  scheduler: Scheduler;
  faults: FaultInjector;
  options: RuntimeOptions;
  /** Prices a plan's paid items for its budget card (the generation providers' quotes). */
  planQuoter?: PlanQuoter;
  /** Counts prompt tokens per layer (libs/llm's Tokenizer); absent: the documented estimate. */
  tokenizer?: { count(text: string): number };
  /** The person's profile for the stable prefix; absent: a fixed one (until memory exists). */
  profile?: ProfileSnapshot;
  /** The person's memories for a step's tail; absent: nothing is recalled (recorded as `disabled`). */
  recall?: MemoryRecall;
  /** How long a step waits for recall before it goes on without memory (default 300 ms). */
  recallTimeoutMs?: number;
  /** Writes history segments; absent: the extractive summarizer. */
  summarizer?: HistorySummarizer;
  /** Drills' mutation switches (libs/platform/src/test-control/README.md); absent: every safeguard on. */
  testControl?: Pick<TestControl, 'mutation'>;
}
