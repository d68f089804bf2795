import { streamNameFilter, type Filter } from '@eventstore/db-client';
import { ConfigError, ValidationError, isValidStreamId, streamCategories } from '@lomo/contracts';

const NAMESPACE_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const SUBSCRIBER_PATTERN = /^[A-Za-z0-9_.:-]{1,200}$/;
// Every stream of the store starts with one of the contract's categories; nothing else in $all is ours.
const OWN_STREAM_REGEX = `^(?:${streamCategories.join('|')})-`;
const ownStream = new RegExp(OWN_STREAM_REGEX);

/**
 * Maps the port's stream ids to EventStoreDB stream names and decides which events in $all are
 * ours. Without a namespace the names are the ids themselves. A namespace ("ns" gives "ns/task-1")
 * lets several stores share one server (test runs, environments); "/" cannot occur in a stream id,
 * so a namespace never sees another namespace's streams. System streams ("$..."), metadata
 * streams ("$$..."), projection output and other applications' streams do not start with one of the
 * contract's categories, so they are never read as events of the store.
 */
export class StreamNames {
  private readonly prefix: string;

  constructor(readonly namespace?: string) {
    if (namespace !== undefined && !NAMESPACE_PATTERN.test(namespace)) {
      throw new ConfigError('Invalid EventStoreDB stream namespace', [
        { variable: 'streamNamespace', message: '1-63 of [a-z0-9_-], starting with a letter or digit' },
      ]);
    }
    this.prefix = namespace === undefined ? '' : `${namespace}/`;
  }

  physical(streamId: string): string {
    return this.prefix + streamId;
  }

  /** The port's stream id of a server stream name, or undefined when the stream is not ours. */
  logical(streamName: string): string | undefined {
    if (!streamName.startsWith(this.prefix)) return undefined;
    const streamId = streamName.slice(this.prefix.length);
    return isValidStreamId(streamId) && ownStream.test(streamId) ? streamId : undefined;
  }

  /**
   * Holder of a subscriber's checkpoint, kept in the stream's metadata (see the adapter). "@" is
   * not allowed in stream ids, so the holder can never collide with, or be read as, a stream of
   * events.
   */
  checkpointHolder(subscriberId: string): string {
    assertSubscriberId(subscriberId);
    return `${this.prefix}lomo-checkpoint@${subscriberId}`;
  }

  /**
   * What a subscription asks the server for: everything that can be ours. The port's own filter is
   * applied by the adapter so that positions advance over the events it excludes.
   */
  serverFilter(): Filter {
    return this.prefix === ''
      ? streamNameFilter({ regex: OWN_STREAM_REGEX })
      : streamNameFilter({ prefixes: [this.prefix] });
  }
}

export function assertSubscriberId(subscriberId: string): void {
  if (typeof subscriberId !== 'string' || !SUBSCRIBER_PATTERN.test(subscriberId)) {
    throw new ValidationError('Invalid subscriberId', [{ path: 'subscriberId', message: '1-200 of [A-Za-z0-9_.:-]' }]);
  }
}
