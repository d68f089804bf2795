import { isLomoError } from '@lomo/contracts';

const CODE = /^[A-Z][A-Z0-9_]{1,63}$/;
const MAX_MESSAGE = 4_000;

/** An error as the contracts' typedError: stable code, bounded message, retriability. */
export function typedErrorOf(
  error: unknown,
  fallbackCode: string,
): { code: string; message: string; retriable: boolean } {
  const code = isLomoError(error) && CODE.test(error.code) ? error.code : fallbackCode;
  const raw = error instanceof Error ? error.message : String(error);
  const message = raw.trim() === '' ? code : raw.length > MAX_MESSAGE ? `${raw.slice(0, MAX_MESSAGE - 1)}…` : raw;
  return { code, message, retriable: isLomoError(error) ? error.retriable : false };
}
