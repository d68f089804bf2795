import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import type { ExecutionArgs, GraphQLError } from 'graphql';
import { handleProtocols, makeServer, type Context, type SubscribePayload } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { LOGGER, type Logger } from '@lomo/observability';
import { API_IP_RATE_LIMITER, API_RATE_LIMITER, API_SETTINGS, API_TOKENS } from '../../api-di-tokens';
import type { ApiSettings } from '../../api-settings';
import { API_TOKEN_STORE, type ApiTokenStore, type ApiTokens, type Caller } from '@lomo/auth';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import { GRAPHQL_PATH } from '../../graphql/graphql-options';
import { clientAddress } from '../../http/client-address';
import type { TokenBucketRateLimiter } from '../../limits/token-bucket';
import type { LiveContext } from '../graphql/live-context';
import { LiveCloseCodes, LiveErrorCodes, closeReason } from '../live-errors';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from '../subscription-settings';
import { authenticateConnection } from './connection-auth';
import { asGraphqlError, formatLiveError } from './format-live-error';
import type { LiveConnection, LiveExtra } from './live-connection';
import { bindSocket } from './ws-socket-adapter';
import { SubscriptionAdmission } from './subscription-admission';

type LiveCtx = Context<Record<string, unknown>, LiveExtra>;

const GOING_AWAY = 1001;
/** A socket closed for cause gets this long to finish the close handshake before it is cut. */
const CLOSE_GRACE_MS = 5_000;

/**
 * GraphQL over WebSocket (the graphql-transport-ws protocol of `graphql-ws`) on the HTTP
 * server's `/graphql`, beside Apollo's POST. Authenticated once per connection from
 * `connectionParams.authorization`; the token is checked again before every subscribe and every
 * `authRecheckMs`, and a revoked one closes the socket with 4401. Each subscribe is parsed,
 * validated and measured like an HTTP operation, rate-limited with the same buckets, and holds
 * one of the token's subscription slots until it ends.
 */
@Injectable()
export class GraphqlWsServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger: Logger;
  private readonly admission: SubscriptionAdmission;
  private readonly connections = new Map<WebSocket, LiveConnection>();
  private wss: WebSocketServer | undefined;
  private httpServer: HttpServer | undefined;
  private sweep: NodeJS.Timeout | undefined;

  constructor(
    @Inject(HttpAdapterHost) private readonly httpHost: HttpAdapterHost,
    @Inject(GraphQLSchemaHost) private readonly schemaHost: GraphQLSchemaHost,
    @Inject(API_SETTINGS) private readonly api: ApiSettings,
    @Inject(SUBSCRIPTION_SETTINGS) private readonly settings: SubscriptionSettings,
    @Inject(API_TOKENS) private readonly tokens: ApiTokens,
    @Inject(API_TOKEN_STORE) private readonly tokenStore: ApiTokenStore,
    @Inject(API_RATE_LIMITER) limiter: TokenBucketRateLimiter,
    @Inject(API_IP_RATE_LIMITER) private readonly ipLimiter: TokenBucketRateLimiter,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'graphql-ws' });
    this.admission = new SubscriptionAdmission(api, settings.maxSubscriptionsPerToken, limiter, this.logger);
  }

  onApplicationBootstrap(): void {
    const httpServer = this.httpHost?.httpAdapter?.getHttpServer() as HttpServer | undefined;
    if (httpServer === undefined) return;
    this.httpServer = httpServer;
    const wss = new WebSocketServer({
      noServer: true,
      maxPayload: this.settings.maxMessageBytes,
      handleProtocols: (protocols) => handleProtocols(protocols),
    });
    this.wss = wss;
    const server = makeServer<Record<string, unknown>, LiveExtra>({
      schema: this.schemaHost.schema,
      connectionInitWaitTimeout: this.settings.connectionInitTimeoutMs,
      onConnect: (ctx) => this.onConnect(ctx),
      onSubscribe: (ctx, id, payload) => this.onSubscribe(ctx, id, payload),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors === undefined
          ? undefined
          : { ...result, errors: result.errors.map((e) => formatLiveError(e, this.formatOptions())) },
      onError: (ctx, id, _payload, errors) => {
        this.release(ctx.extra.connection, id);
        return errors.map((e) => formatLiveError(e, this.formatOptions()));
      },
      onComplete: (ctx, id) => this.release(ctx.extra.connection, id),
      onClose: (ctx) => {
        for (const id of [...ctx.extra.connection.operations]) this.release(ctx.extra.connection, id);
      },
    });
    wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
      const connection: LiveConnection = {
        id: randomUUID(),
        socket,
        request,
        identity: undefined,
        operations: new Set(),
      };
      this.connections.set(socket, connection);
      void bindSocket(server, connection, { keepAliveMs: this.settings.keepAliveMs, logger: this.logger }).then(() =>
        this.connections.delete(socket),
      );
    });
    httpServer.on('upgrade', this.onUpgrade);
    this.sweep = setInterval(() => void this.recheckTokens(), this.settings.authRecheckMs);
    this.sweep.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.sweep);
    this.httpServer?.off('upgrade', this.onUpgrade);
    const sockets = [...this.connections.keys()];
    for (const socket of sockets) socket.close(GOING_AWAY, 'Server shutting down');
    await Promise.race([
      Promise.all(sockets.map((s) => new Promise((resolve) => s.once('close', resolve)))),
      new Promise((resolve) => setTimeout(resolve, 1_000).unref()),
    ]);
    for (const socket of this.connections.keys()) socket.terminate();
    await new Promise<void>((resolve) => (this.wss ? this.wss.close(() => resolve()) : resolve()));
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const wss = this.wss;
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (wss === undefined || path !== GRAPHQL_PATH) {
      // Another listener may serve that path; with none, nobody would ever answer the socket.
      if (this.httpServer?.listenerCount('upgrade') === 1) socket.destroy();
      return;
    }
    // Before the handshake and before authentication, as for HTTP (graphql-gate.middleware.ts).
    const address = clientAddress(request, this.api.trustProxy);
    const decision = this.ipLimiter.take(address, 1);
    if (!decision.allowed) {
      const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      this.logger.info({ address }, 'graphql-ws connection refused: rate limited by client address');
      const body = JSON.stringify({
        errors: [
          {
            message: `Too many requests for this client address; retry in ${retryAfterSeconds} s`,
            extensions: { code: ApiErrorCodes.RATE_LIMITED, retryAfterSeconds, scope: 'address' },
          },
        ],
      });
      socket.end(
        `HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${retryAfterSeconds}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };

  private async onConnect(ctx: LiveCtx): Promise<boolean> {
    const { connection } = ctx.extra;
    try {
      connection.identity = await authenticateConnection(ctx.connectionParams, this.tokens);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== ApiErrorCodes.UNAUTHENTICATED) throw error;
      this.logger.info({ connectionId: connection.id, reason: error.message }, 'graphql-ws connection refused');
      this.closeFor(connection, LiveCloseCodes.UNAUTHENTICATED, error.code, error.message);
      return false;
    }
    const { caller } = connection.identity;
    this.logger.debug(
      { connectionId: connection.id, tokenId: caller.tokenId, workspaceId: caller.workspaceId },
      'graphql-ws connection accepted',
    );
    return true;
  }

  private async onSubscribe(
    ctx: LiveCtx,
    id: string,
    payload: SubscribePayload,
  ): Promise<ExecutionArgs | readonly GraphQLError[]> {
    const { connection } = ctx.extra;
    try {
      const caller = await this.liveCaller(connection);
      const schema = this.schemaHost.schema;
      const document = this.admission.admit(caller, `${connection.id}/${id}`, schema, payload);
      if (Array.isArray(document)) return document;
      connection.operations.add(id);
      const contextValue: LiveContext = {
        caller,
        live: {
          closeForSlowConsumer: (error) =>
            this.closeFor(connection, LiveCloseCodes.SLOW_CONSUMER, LiveErrorCodes.SLOW_CONSUMER, error.message),
        },
      };
      return {
        schema,
        document,
        operationName: payload.operationName,
        variableValues: payload.variables,
        contextValue,
      };
    } catch (error) {
      return [asGraphqlError(error)];
    }
  }

  /** The connection's caller, if its token is still live; a revoked token closes the socket. */
  private async liveCaller(connection: LiveConnection): Promise<Caller> {
    const identity = connection.identity;
    if (identity === undefined) throw new ApiError(ApiErrorCodes.UNAUTHENTICATED, 'Not authenticated');
    if ((await this.tokenStore.findActiveByHash(identity.secretHash)) === undefined) {
      this.revoked(connection);
      throw new ApiError(ApiErrorCodes.UNAUTHENTICATED, 'Token revoked');
    }
    return identity.caller;
  }

  private async recheckTokens(): Promise<void> {
    for (const connection of [...this.connections.values()]) {
      const identity = connection.identity;
      if (identity === undefined) continue;
      try {
        if ((await this.tokenStore.findActiveByHash(identity.secretHash)) === undefined) this.revoked(connection);
      } catch (error) {
        this.logger.warn(
          { connectionId: connection.id, error: error instanceof Error ? error.message : String(error) },
          'token re-check failed; kept open until the next one',
        );
      }
    }
  }

  private revoked(connection: LiveConnection): void {
    this.logger.info(
      { connectionId: connection.id, tokenId: connection.identity?.caller.tokenId },
      'graphql-ws connection closed: token revoked',
    );
    this.closeFor(connection, LiveCloseCodes.UNAUTHENTICATED, ApiErrorCodes.UNAUTHENTICATED, 'Token revoked');
  }

  private closeFor(connection: LiveConnection, closeCode: number, code: string, message: string): void {
    const { socket } = connection;
    if (socket.readyState === socket.CLOSED) return;
    socket.close(closeCode, closeReason(code, message));
    // A client that stopped reading never answers the close frame: cut it after a grace period.
    setTimeout(() => {
      if (socket.readyState !== socket.CLOSED) socket.terminate();
    }, CLOSE_GRACE_MS).unref();
  }

  private release(connection: LiveConnection, id: string): void {
    if (!connection.operations.delete(id)) return;
    const tokenId = connection.identity?.caller.tokenId;
    if (tokenId !== undefined) this.admission.release(tokenId, `${connection.id}/${id}`);
  }

  private formatOptions() {
    return {
      exposeInternals: this.api.exposeInternals,
      hideSuggestions: this.api.hideSuggestions,
      logger: this.logger,
    };
  }
}
