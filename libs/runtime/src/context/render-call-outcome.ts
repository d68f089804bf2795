import type { ToolCall } from '@lomo/domain';

/** What the model reads as the result of one earlier call (the content of a tool message). */
export function renderCallOutcome(call: ToolCall): string {
  switch (call.status) {
    case 'completed':
      if (call.outcome === 'error') return JSON.stringify({ ok: false, error: call.error });
      // A stored large result: its summary names the ref and the pages result.read returns.
      if (call.resultRef !== undefined) return JSON.stringify({ ok: true, result: call.result ?? null, stored: true });
      return JSON.stringify({ ok: true, result: call.result ?? null });
    case 'unknown':
      return JSON.stringify({
        ok: false,
        outcome: 'unknown',
        message:
          'This call started but its result was lost, and the tool is not safe to repeat, so it was not run again. Its effect may or may not have happened: check before trying again.',
      });
    case 'intended':
    case 'started':
      // Not reached for committed history (the runtime settles every call before the next step).
      return JSON.stringify({ ok: false, outcome: 'not_finished' });
  }
}
