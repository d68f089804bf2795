import { randomUUID } from 'node:crypto';
import type { BlobStore } from '@lomo/blobs';
import type { Clock, IdGenerator } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { ModelProvider } from '@lomo/llm';
import { Metrics, type Logger } from '@lomo/observability';
import {
  ContextBuilder,
  ExtractiveSummarizer,
  noFaults,
  RuntimeMetrics,
  type MemoryRecall,
  type ProfileSnapshot,
  type RuntimeDeps,
  type RuntimeOptions,
} from '@lomo/runtime';
import { ToolRegistry, type ToolDefinition } from '@lomo/tools';

/**
 * What a replay needs of the runtime's setup to rebuild prompts as its workers do: the tool
 * registry (only its definitions are read: names, descriptions, schemas, domains), the runtime
 * options (context window, history share, tool strategy and domains) and tokenizer. A worker's
 * whole RuntimeDeps may be passed: its store, bus, model, blobs, summarizer, live recall and
 * profile are never used (a step's profile and memories are the ones it recorded).
 */
export interface ReplayDeps {
  tools: ToolRegistry;
  options: RuntimeOptions;
  logger: Logger;
  tokenizer?: { count(text: string): number };
  clock?: Clock;
  ids?: IdGenerator;
  /** The pure ContextBuilder by default; a test passes a changed one to see it as context drift. */
  contextBuilder?: ContextBuilder;
}

export class ReplaySideEffectError extends Error {
  constructor(what: string) {
    super(`a replay never ${what}`);
  }
}

const refuse = (what: string) => () => Promise.reject(new ReplaySideEffectError(what));

/** The registry's definitions with their runs replaced: the same specs, and no tool can run. */
export function specsOnly(tools: ToolRegistry): ToolRegistry {
  return new ToolRegistry(
    tools
      .list()
      .map((definition): ToolDefinition => ({ ...definition, run: refuse(`runs a tool (${definition.name})`) })),
  );
}

const refusingModel: ModelProvider = { name: 'replay-no-model', complete: refuse('calls the runtime model') };

/**
 * The RuntimeDeps a replayed step's ContextAssembler stands on: the copy's store and blobs, the
 * step's recorded profile and recall, the offline extractive summarizer (a model summarizer
 * would call a provider), and a bus, model, scheduler and tools that refuse to act.
 */
export function replayRuntimeDeps(
  deps: ReplayDeps,
  copy: { store: EventStore; blobs: BlobStore; tools: ToolRegistry },
  memory: { profile: ProfileSnapshot; recall: MemoryRecall | undefined },
): RuntimeDeps {
  return {
    store: copy.store,
    blobs: copy.blobs,
    bus: { publish: refuse('publishes to the bus') },
    model: refusingModel,
    tools: copy.tools,
    clock: deps.clock ?? { now: () => new Date() },
    ids: deps.ids ?? { uuid: () => randomUUID() },
    logger: deps.logger,
    metrics: new RuntimeMetrics(new Metrics({ defaultMetrics: false }), () => 0),
    scheduler: {
      every: () => {
        throw new ReplaySideEffectError('schedules work');
      },
    },
    faults: noFaults,
    options: deps.options,
    summarizer: new ExtractiveSummarizer(),
    ...(deps.tokenizer !== undefined ? { tokenizer: deps.tokenizer } : {}),
    profile: memory.profile,
    ...(memory.recall !== undefined ? { recall: memory.recall, recallTimeoutMs: 10_000 } : {}),
  };
}
