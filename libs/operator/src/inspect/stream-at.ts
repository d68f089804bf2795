import type { Caller } from '@lomo/auth';
import { isValidStreamId, type EventEnvelope } from '@lomo/contracts';
import { BadOperatorInputError, BadPositionError, UnknownStreamError } from '../errors';
import { mayShow } from '../access/operator-access';
import type { InspectionSources } from './inspection-sources';
import { comparePositions } from '../positions';
import { foldEvents, foldForCategory } from './stream-folds';
import { readForgottenIds, redactForgotten } from './redact-forgotten';
import { assertMayReadPrivateStream, assertMayReadStream } from './stream-access';
import type { StreamPoint } from './stream-point';

export interface StreamAtResult {
  streamId: string;
  category: string;
  workspaceId: string;
  /** The last event folded: its revision, global position and time. */
  revision: number;
  position: string;
  occurredAt: string;
  /** The stream's last revision now. */
  headRevision: number;
  /**
   * The aggregate as its decider folds the events up to the point (sets as arrays, so it prints
   * as JSON the way it is held); null without a decider.
   */
  state: unknown;
  folded: boolean;
  /** The events up to the point, as stored. */
  events: EventEnvelope[];
}

/**
 * Time travel: a stream as it stood at a revision, a global position or a moment, folded with
 * its aggregate's own decider, so what an operator sees is what the writers decided on then.
 */
export async function readStreamAt(
  sources: InspectionSources,
  caller: Caller,
  streamId: string,
  at?: StreamPoint,
): Promise<StreamAtResult> {
  if (!isValidStreamId(streamId))
    throw new BadOperatorInputError(`"${streamId}" is not a stream id (category-id, e.g. task-<uuid>)`, { streamId });
  assertMayReadPrivateStream(caller, streamId);
  const all = await sources.events.readStream(streamId);
  if (all.length === 0) throw new UnknownStreamError(streamId);
  const workspaceId = all[0].metadata.workspaceId;
  assertMayReadStream(caller, streamId, workspaceId);

  const headRevision = all[all.length - 1].metadata.revision;
  // Forgotten texts are replaced before the fold, so neither the events nor the state print them.
  const forgotten = await readForgottenIds(sources);
  const upTo = eventsUpTo(all, at, headRevision).map((e) => redactForgotten(e, forgotten));
  const visible = upTo.filter((e) => mayShow(caller, e));
  const category = streamId.slice(0, streamId.indexOf('-'));
  const fold = foldForCategory(category);
  // A caller that may not see every event (an integration) gets no state: a partial fold would lie.
  const folded = fold !== undefined && visible.length === upTo.length;
  const last = upTo[upTo.length - 1];
  return {
    streamId,
    category,
    workspaceId,
    revision: last.metadata.revision,
    position: last.metadata.globalPosition,
    occurredAt: last.metadata.occurredAt,
    headRevision,
    state: folded ? plain(foldEvents(fold, upTo)) : null,
    folded,
    events: visible,
  };
}

/** The events up to the point (all of them without one); a point before the first is refused. */
function eventsUpTo(all: EventEnvelope[], at: StreamPoint | undefined, headRevision: number): EventEnvelope[] {
  if (at === undefined) return all;
  switch (at.kind) {
    case 'revision': {
      if (!Number.isSafeInteger(at.revision) || at.revision < 0)
        throw new BadPositionError(String(at.revision), 'a revision is 0 or more');
      if (at.revision > headRevision)
        throw new BadPositionError(String(at.revision), `beyond the stream's head (revision ${headRevision})`);
      return all.filter((e) => e.metadata.revision <= at.revision);
    }
    case 'position': {
      const picked = all.filter((e) => {
        const order = comparePositions(e.metadata.globalPosition, at.position);
        if (order === undefined)
          throw new BadPositionError(
            `pos:${at.position}`,
            `not comparable with this store's positions (such as "${e.metadata.globalPosition}")`,
          );
        return order <= 0;
      });
      if (picked.length === 0)
        throw new BadPositionError(
          `pos:${at.position}`,
          `before the stream's first event (position ${all[0].metadata.globalPosition})`,
        );
      return picked;
    }
    case 'time': {
      const ms = Date.parse(at.time);
      if (Number.isNaN(ms)) throw new BadPositionError(at.time, 'not a valid date-time');
      const picked = all.filter((e) => Date.parse(e.metadata.occurredAt) <= ms);
      if (picked.length === 0)
        throw new BadPositionError(at.time, `before the stream's first event (${all[0].metadata.occurredAt})`);
      return picked;
    }
  }
}

/** Sets as arrays and maps as objects, at every depth: a state as JSON would lose them. */
function plain(value: unknown): unknown {
  if (value instanceof Set) return [...value].map(plain);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
}
