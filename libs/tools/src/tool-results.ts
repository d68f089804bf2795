import { isLomoError } from '@lomo/contracts';
import { isValidErrorCode, ToolErrorCodes } from './tool-errors';
import type { JsonValue, ToolResult } from './tool.port';

/** The event contract caps error messages at 4 000 characters; the model does not need more. */
const MAX_ERROR_MESSAGE = 4_000;

export const okResult = (output: JsonValue): ToolResult => ({ status: 'ok', output });

export const pendingResult = (note?: string): ToolResult =>
  note === undefined ? { status: 'pending' } : { status: 'pending', note };

export function errorResult(code: string, message: string, retriable: boolean): ToolResult {
  return { status: 'error', error: { code, message: boundedMessage(message), retriable } };
}

/** A thrown value as the model sees it: typed errors keep their code, anything else is TOOL_FAILED. */
export function errorResultFromThrown(thrown: unknown): ToolResult {
  if (isLomoError(thrown) && isValidErrorCode(thrown.code)) {
    return errorResult(thrown.code, thrown.message || thrown.code, thrown.retriable);
  }
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  // Unknown failures are not retried blindly: nobody knows whether the effect happened.
  return errorResult(ToolErrorCodes.failed, message || 'the tool failed without a message', false);
}

function boundedMessage(message: string): string {
  const text = message.trim() === '' ? 'no message' : message;
  return text.length <= MAX_ERROR_MESSAGE ? text : `${text.slice(0, MAX_ERROR_MESSAGE - 1)}…`;
}
