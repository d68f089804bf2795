import type { ToolDefinition, ToolResult } from '../../tool.port';
import type { EffectSink } from './effect-sink';
import type { ToolDecorator } from '../../starter/create-starter-tools';

export interface RecordEffectsOptions {
  /**
   * Whether a result stands for a real effect. Default: any `ok` result. Idempotent tools that
   * report a deduplicated repeat (notes.create's `created: false`) pass a sharper test.
   */
  isEffect?: (result: ToolResult) => boolean;
}

/**
 * Wraps a tool so that each real effect is also written to a side file, after the tool returned
 * and before the result is handed back: a process killed after that point, before the runtime
 * recorded the result, still leaves the evidence a multi-process test counts. (A kill between the
 * effect and the line loses the line; the notes store's own effects table has no such gap.)
 * Read tools have no effect and are returned unwrapped.
 */
export function recordEffects<Input>(
  tool: ToolDefinition<Input>,
  sink: EffectSink,
  options: RecordEffectsOptions = {},
): ToolDefinition<Input> {
  if (tool.sideEffect === 'read') return tool;
  const isEffect = options.isEffect ?? ((result: ToolResult) => result.status === 'ok');
  return {
    ...tool,
    async run(input, context) {
      const result = await tool.run(input, context);
      if (isEffect(result)) {
        await sink.record({
          idempotencyKey: context.idempotencyKey,
          tool: tool.name,
          at: context.clock.now().toISOString(),
        });
      }
      return result;
    },
  };
}

/** A ToolDecorator for createStarterTools that records every real effect in `sink` (the drills' effect log). */
export const recordEffectsIn =
  (sink: EffectSink): ToolDecorator =>
  (tool, traits) =>
    recordEffects(tool, sink, traits);
