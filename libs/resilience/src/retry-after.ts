/**
 * How long a server asked us to wait, from `retry-after-ms` (OpenAI's own) or the standard
 * `retry-after` (seconds or an HTTP date). Undefined when absent or unreadable. The one reading
 * for every HTTP adapter (the chat model, the generation providers).
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
