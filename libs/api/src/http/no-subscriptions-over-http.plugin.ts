import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { ApiErrorCodes } from '@lomo/contracts';

/**
 * Apollo executes whatever operation a POST names; a subscription's resolver returns an async
 * iterator that only graphql-ws knows how to run (libs/api/src/subscriptions/ws), so over HTTP it
 * failed inside execution as INTERNAL_SERVER_ERROR. Refused here, before any resolver runs.
 */
export function noSubscriptionsOverHttpPlugin(): ApolloServerPlugin {
  return {
    requestDidStart() {
      return Promise.resolve({
        didResolveOperation({ operation }) {
          if (operation?.operation === 'subscription') {
            throw new GraphQLError('Subscriptions run over WebSocket (graphql-ws) on /graphql, not over HTTP', {
              extensions: { code: ApiErrorCodes.BAD_REQUEST, http: { status: 400 } },
            });
          }
          return Promise.resolve();
        },
      });
    },
  };
}
