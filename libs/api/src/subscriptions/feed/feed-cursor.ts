import { z } from 'zod';
import type { Position } from '@lomo/eventstore';
import { validationFailed } from '@lomo/contracts';

const cursorSchema = z.strictObject({ v: z.literal(1), p: z.string().min(1).max(200) });

const badCursor = () => validationFailed([{ path: 'after', message: 'not a feed cursor this API issued' }]);

/**
 * A feed cursor: the store position of the event it is attached to, wrapped so clients treat it
 * as opaque and the format can change (versioned). Resuming "after" it reads strictly later
 * events, so a client that saved the cursor of the last event it handled misses nothing and
 * gets nothing twice.
 */
export function encodeFeedCursor(position: Position): string {
  return Buffer.from(JSON.stringify({ v: 1, p: position }), 'utf8').toString('base64url');
}

export function decodeFeedCursor(cursor: string): Position {
  if (cursor.length > 400 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))).p;
  } catch {
    throw badCursor();
  }
}
