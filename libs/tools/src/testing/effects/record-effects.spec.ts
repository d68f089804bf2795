import { z } from 'zod';
import { recordEffects } from './record-effects';
import type { EffectLine, EffectSink } from './effect-sink';
import { okResult, errorResult } from '../../tool-results';
import { defineTool, type SideEffectClass, type ToolResult } from '../../tool.port';
import { makeToolContext } from '../tool-context';

class MemorySink implements EffectSink {
  readonly lines: EffectLine[] = [];
  async record(effect: EffectLine): Promise<void> {
    this.lines.push(effect);
  }
}

const tool = (sideEffect: SideEffectClass, result: ToolResult) =>
  defineTool({
    name: 'thing.do',
    description: 'Does a thing',
    domain: 'core',
    sideEffect,
    idempotent: false,
    input: z.strictObject({}),
    run: async () => result,
  });

describe('recordEffects', () => {
  it('records one line per successful call with the call key, the tool and the time', async () => {
    const sink = new MemorySink();
    const wrapped = recordEffects(tool('write', okResult(1)), sink);
    const context = makeToolContext({ index: 3 });
    await expect(wrapped.run({}, context)).resolves.toEqual(okResult(1));
    await wrapped.run({}, context);
    expect(sink.lines).toEqual([
      { idempotencyKey: context.callId, tool: 'thing.do', at: '2026-11-30T00:00:00.000Z' },
      { idempotencyKey: context.callId, tool: 'thing.do', at: '2026-11-30T00:00:00.000Z' },
    ]);
  });

  it('records nothing for a failed call or a read tool', async () => {
    const sink = new MemorySink();
    await recordEffects(tool('irreversible', errorResult('NOPE', 'no', false)), sink).run({}, makeToolContext());
    const read = tool('read', okResult(1));
    expect(recordEffects(read, sink)).toBe(read);
    expect(sink.lines).toHaveLength(0);
  });

  it('asks the given predicate whether a result is an effect', async () => {
    const sink = new MemorySink();
    const wrapped = recordEffects(tool('write', okResult({ created: false })), sink, {
      isEffect: (r) => r.status === 'ok' && JSON.stringify(r.output).includes('"created":true'),
    });
    await wrapped.run({}, makeToolContext());
    expect(sink.lines).toHaveLength(0);
  });
});
