import type { ApiContext } from '@lomo/auth';

/** The GraphQL context of an operation over graphql-ws: the caller and a handle on the socket. */
export interface LiveContext extends ApiContext {
  live?: {
    /** Cuts the connection off: its client stopped reading and payloads would pile up. */
    closeForSlowConsumer(error: Error): void;
  };
}

export const slowConsumerHandler = (context: Partial<LiveContext>) => (error: Error) =>
  context.live?.closeForSlowConsumer(error);
