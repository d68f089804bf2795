import { BadPositionError } from '../errors';

/** Where `readStreamAt` stops: a stream revision, a global position, or a moment. */
export type StreamPoint =
  { kind: 'revision'; revision: number } | { kind: 'position'; position: string } | { kind: 'time'; time: string };

const POSITION_PREFIX = 'pos:';
/** A date-time with its zone (Z or ±hh:mm), seconds and fractions optional. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The `--at` syntax: `12` (a revision), `pos:<position>` (a global position as the store printed
 * it), or an ISO-8601 date-time with its zone (`2026-12-01T10:00:00Z`). Anything else is refused.
 */
export function parseStreamPoint(text: string): StreamPoint {
  const value = text.trim();
  if (/^-\d+$/.test(value)) throw new BadPositionError(text, 'a revision is 0 or more');
  if (/^\d+$/.test(value)) {
    const revision = Number(value);
    if (!Number.isSafeInteger(revision)) throw new BadPositionError(text, 'the revision is too large');
    return { kind: 'revision', revision };
  }
  if (value.startsWith(POSITION_PREFIX)) {
    const position = value.slice(POSITION_PREFIX.length);
    if (position.length === 0 || position.length > 64 || /\s/.test(position))
      throw new BadPositionError(text, 'pos: is followed by a global position as the store printed it');
    return { kind: 'position', position };
  }
  if (DATE_TIME.test(value)) {
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw new BadPositionError(text, 'not a valid date-time');
    return { kind: 'time', time: new Date(ms).toISOString() };
  }
  throw new BadPositionError(
    text,
    'expected a revision (12), a global position (pos:<position>) or an ISO-8601 date-time with its zone',
  );
}
