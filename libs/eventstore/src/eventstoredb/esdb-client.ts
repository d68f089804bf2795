import {
  EventStoreDBClient,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type AppendResult,
  type GetStreamMetadataResult,
  type JSONEventData,
  type ReadAllOptions,
  type ReadStreamOptions,
  type ResolvedEvent,
  type StreamMetadata,
  type SubscribeToAllOptions,
} from '@eventstore/db-client';
import { ConfigError } from '@lomo/contracts';

/** The part of a $all subscription the adapter uses (the client's AllStreamSubscription has it). */
export interface LiveSubscription {
  on(event: 'data', listener: (event: AllStreamResolvedEvent) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'end', listener: () => void): this;
  on(event: 'close', listener: () => void): this;
  pause(): this;
  resume(): this;
  unsubscribe(): Promise<void>;
}

/**
 * The calls the adapter makes, as the client declares them. `EventStoreDBClient` satisfies it;
 * tests substitute an in-memory fake, which is how the adapter is exercised without a server.
 */
export interface EsdbClient {
  appendToStream(
    streamName: string,
    events: JSONEventData[],
    options: { expectedRevision: AppendExpectedRevision },
  ): Promise<AppendResult>;
  readStream(streamName: string, options: ReadStreamOptions): AsyncIterable<ResolvedEvent>;
  readAll(options: ReadAllOptions): AsyncIterable<AllStreamResolvedEvent>;
  subscribeToAll(options: SubscribeToAllOptions): LiveSubscription;
  getStreamMetadata(streamName: string): Promise<GetStreamMetadataResult>;
  setStreamMetadata(streamName: string, metadata: StreamMetadata): Promise<AppendResult>;
  dispose(): Promise<void>;
}

/** No connection is opened here: the client connects on its first call. */
export function connectEsdbClient(connectionString: string): EsdbClient {
  try {
    return EventStoreDBClient.connectionString(connectionString);
  } catch (error) {
    throw new ConfigError('Invalid EventStoreDB connection string', [
      { variable: 'EVENTSTORE_URL', message: error instanceof Error ? error.message : String(error) },
    ]);
  }
}
