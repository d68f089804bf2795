import { jsonValue } from '@lomo/contracts';
import { errorResult, errorResultFromThrown } from '../tool-results';
import { ToolErrorCodes } from '../tool-errors';
import type { ToolContext, ToolDefinition, ToolResult } from '../tool.port';

/**
 * Runs a tool with parsed input and always resolves. An abort does not wait for a tool that
 * ignores its signal: a stopped task must release its worker now, and whoever continues the turn
 * decides from the ledger (a started call without a result), not from this result.
 */
export async function runTool<Input>(
  definition: ToolDefinition<Input>,
  input: Input,
  context: ToolContext,
): Promise<ToolResult> {
  if (context.signal.aborted) return abortedResult(definition.name, false);
  const outcome = await raceAbort(safeRun(definition, input, context), context.signal);
  if (outcome === ABORTED) return abortedResult(definition.name, true);
  return checkResult(definition, outcome, context.signal);
}

const ABORTED = Symbol('aborted');

async function safeRun<Input>(
  definition: ToolDefinition<Input>,
  input: Input,
  context: ToolContext,
): Promise<ToolResult | { thrown: unknown }> {
  try {
    return await definition.run(input, context);
  } catch (thrown) {
    return { thrown };
  }
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  return new Promise((resolve) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then((value) => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
  });
}

function checkResult(
  definition: Pick<ToolDefinition, 'name' | 'async'>,
  outcome: ToolResult | { thrown: unknown },
  signal: AbortSignal,
): ToolResult {
  if ('thrown' in outcome) {
    // A tool that gave up because of the abort reports the abort, not its own symptom of it.
    return signal.aborted ? abortedResult(definition.name, true) : errorResultFromThrown(outcome.thrown);
  }
  if (outcome.status === 'pending' && definition.async !== true) {
    // Nobody would ever complete it: the turn would wait forever.
    return violation(definition.name, 'returned pending but is not declared async');
  }
  if (outcome.status === 'ok' && !jsonValue.safeParse(outcome.output).success) {
    return violation(definition.name, 'returned an output that is not plain JSON');
  }
  return outcome;
}

function violation(name: string, what: string): ToolResult {
  return errorResult(ToolErrorCodes.contractViolation, `Tool ${name} ${what}.`, false);
}

function abortedResult(name: string, started: boolean): ToolResult {
  const message = started
    ? `The call to ${name} was abandoned because the turn was cancelled; its effect may or may not have happened.`
    : `The call to ${name} was not started because the turn was cancelled.`;
  // Not retriable by the caller: a cancelled turn must not act again.
  return errorResult(ToolErrorCodes.aborted, message, false);
}
