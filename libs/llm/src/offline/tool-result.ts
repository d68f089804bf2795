import { isRecord } from './json-values';

const clip = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

const scalar = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** `{a: 1, b: "x"}` as `a: 1, b: x`: readable in any language without translating keys. */
const flatten = (record: Record<string, unknown>) =>
  Object.entries(record)
    .map(([k, v]) => `${k}: ${scalar(v)}`)
    .join(', ');

function readableOf(record: Record<string, unknown>): string {
  for (const key of ['summary', 'message', 'text']) if (typeof record[key] === 'string') return record[key];
  // Results arrive wrapped ({ ok, result } / { ok: false, error: { code, message } }); show the inside.
  if (isRecord(record.error)) return readableOf(record.error);
  if (typeof record.error === 'string') return record.error;
  if (isRecord(record.result)) return readableOf(record.result);
  return flatten(record);
}

/** A tool result as one short line, and whether it reports a failure. */
export function readToolResult(content: string): { summary: string; failed: boolean } {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { summary: clip(content), failed: /^\s*(error|failed)\b/i.test(content) };
  }
  if (!isRecord(value)) return { summary: clip(scalar(value)), failed: false };
  const failed = 'error' in value || value.ok === false || value.status === 'failed' || value.status === 'error';
  return { summary: clip(readableOf(value)), failed };
}
