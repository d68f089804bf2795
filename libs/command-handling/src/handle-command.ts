import { ConcurrencyError, type IdGenerator, type WriteMetadata } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { retry, type RetryOptions } from '@lomo/resilience';
import { AggregateStream, type AppendOptions } from './aggregate-stream';
import { decideAll } from './decide-all';
import type { DomainEvent, FoldingDecider, KnownEventTypes } from './domain-event';

/**
 * What a concurrent writer means for a command. `retry`: decide again on fresh state, a few times
 * (the default; the command's rules are re-checked, so a repeat becomes a no-op). `refuse`: the
 * ConcurrencyError propagates, for writes whose caller must decide (the runtime's fenced appends).
 */
export type ConflictPolicy = { onConflict: 'retry'; maxAttempts?: number } | { onConflict: 'refuse' };

export const DEFAULT_CONFLICT_ATTEMPTS = 8;

export const DEFAULT_CONFLICT_POLICY: ConflictPolicy = { onConflict: 'retry', maxAttempts: DEFAULT_CONFLICT_ATTEMPTS };

/**
 * The shared retry helper's settings for "a concurrent writer got there first": retry only that,
 * after a short jittered pause (the other writer is usually done within milliseconds).
 */
export const conflictRetry = (maxAttempts = DEFAULT_CONFLICT_ATTEMPTS): RetryOptions => ({
  maxAttempts,
  initialDelayMs: 2,
  maxDelayMs: 50,
  isRetriable: (error) => error instanceof ConcurrencyError,
});

/**
 * A (stream, revision) pair a command's outcome sits at: what consistency tokens are built from.
 * The revision written, or on a repeat the revision read (the outcome was already there), so a
 * query waiting on the token sees the outcome either way.
 */
export interface StreamWrite {
  streamId: string;
  revision: number;
}

export interface CommandResult<E, S> {
  /** False when the decider found nothing to do (a repeat), or the store recognised a repeated write. */
  changed: boolean;
  /** Where the outcome sits (see StreamWrite); empty only for an absent stream left absent. */
  writes: StreamWrite[];
  events: E[];
  /** The aggregate after the command, and its stream's last revision. */
  state: S;
  revision: number | 'no_stream';
  /** The workspace of the stream's events (undefined for an absent stream). */
  workspaceId: string | undefined;
}

export interface CommandOptions<E extends DomainEvent, S> extends AppendOptions {
  eventTypes: KnownEventTypes<E>;
  /** The metadata of what is appended; a function of the stream when it depends on it (its workspace). */
  metadata: WriteMetadata | ((stream: AggregateStream<E, S>) => WriteMetadata);
  ids: IdGenerator;
  policy?: ConflictPolicy;
  /** Fold only from this revision (see AggregateStream.read). */
  fromRevision?: number;
  /**
   * A fold of the stream the caller already holds (a cache of a large aggregate): the handler reads
   * and folds only the events after its revision instead of the whole stream. It must be a fold of
   * this stream's events up to `revision` (deciders' states are immutable, so sharing it is safe).
   */
  initial?: { state: S; revision: number | 'no_stream'; workspaceId?: string };
  /** Checked on the folded stream before deciding (e.g. the tenant boundary); throw to refuse. */
  guard?: (stream: AggregateStream<E, S>) => void;
}

/**
 * The one decider command handler (cf. emmett's DeciderCommandHandler): read the stream, fold it,
 * decide, append at the revision read. A concurrent writer makes the append fail; under the
 * `retry` policy the command is decided again on fresh state through the shared retry helper. A
 * DomainError from the decider is a refusal and propagates unchanged. `command` may be a function
 * of the state returning one command or several (decided in order and appended as one batch).
 */
export async function handleCommand<C, E extends DomainEvent, S>(
  store: EventStore,
  streamId: string,
  decider: FoldingDecider<C, E, S>,
  command: C | ((state: S) => C | readonly C[]),
  options: CommandOptions<E, S>,
): Promise<CommandResult<E, S>> {
  const policy = options.policy ?? DEFAULT_CONFLICT_POLICY;
  const once = async (): Promise<CommandResult<E, S>> => {
    const stream = options.initial
      ? await AggregateStream.from(store, streamId, decider, options.eventTypes, options.initial)
      : await AggregateStream.read(store, streamId, decider, options.eventTypes, {
          fromRevision: options.fromRevision,
        });
    options.guard?.(stream);
    const commands =
      typeof command === 'function' ? (command as (state: S) => C | readonly C[])(stream.state) : command;
    const events = Array.isArray(commands)
      ? decideAll(decider, stream.state, commands as readonly C[])
      : decider.decide(commands as C, stream.state);
    const unchanged = (): CommandResult<E, S> => ({
      changed: false,
      writes: stream.revision === 'no_stream' ? [] : [{ streamId, revision: stream.revision }],
      events: [],
      state: stream.state,
      revision: stream.revision,
      workspaceId: stream.workspaceId,
    });
    if (events.length === 0) return unchanged();
    const metadata = typeof options.metadata === 'function' ? options.metadata(stream) : options.metadata;
    const result = await stream.append(store, events, metadata, options.ids, options);
    if (!result.written) return unchanged();
    return {
      changed: true,
      writes: [{ streamId, revision: result.nextExpectedRevision }],
      events,
      state: stream.state,
      revision: stream.revision,
      workspaceId: stream.workspaceId,
    };
  };
  if (policy.onConflict === 'refuse') return once();
  return retry(once, conflictRetry(policy.maxAttempts));
}
