import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { repoRoot } from '../support/child-process';

const run = promisify(execFile);

export interface GraphqlError {
  message: string;
  extensions?: { code?: string } & Record<string, unknown>;
}

export interface GraphqlResponse<T> {
  data?: T | null;
  errors?: GraphqlError[];
}

/** POST /graphql with a bearer token; throws on a transport failure, not on GraphQL errors. */
export async function gql<T>(
  baseUrl: string,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphqlResponse<T>> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(30_000),
  });
  return (await response.json()) as GraphqlResponse<T>;
}

/** Like gql, but a response with errors or without data is a failure naming the operation. */
export async function gqlData<T>(
  baseUrl: string,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const result = await gql<T>(baseUrl, token, query, variables);
  if (result.errors !== undefined || result.data == null) {
    throw new Error(`GraphQL ${query.slice(0, 60)}… failed: ${JSON.stringify(result.errors)}`);
  }
  return result.data;
}

/**
 * A token from `lomo tokens create`, run as its own process against the auth file the API
 * instances share (distributed mode prints no dev token).
 */
export async function createApiToken(
  env: Record<string, string>,
  workspaceId: string,
  userId: string,
): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [
      '-r',
      './scripts/register.cjs',
      'apps/cli/src/main.ts',
      '--json',
      'tokens',
      'create',
      '--workspace',
      workspaceId,
      '--user',
      userId,
      '--name',
      'drill',
    ],
    { cwd: repoRoot, env: { ...process.env, ...env }, timeout: 60_000 },
  );
  const parsed = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { token?: unknown };
  if (typeof parsed.token !== 'string') throw new Error(`lomo tokens create printed no token: ${stdout}`);
  return parsed.token;
}

/** One subscription's payloads as they arrive, and how it ended if it did. */
export class LiveFeed<T> {
  readonly payloads: T[] = [];
  readonly errors: unknown[] = [];
  ended = false;
  private readonly stop: () => void;

  constructor(client: Client, query: string, variables: Record<string, unknown> = {}) {
    this.stop = client.subscribe<T>(
      { query, variables },
      {
        next: (result: FormattedExecutionResult<T>) => {
          if (result.errors) this.errors.push(result.errors);
          else if (result.data) this.payloads.push(result.data);
        },
        error: (error: unknown) => {
          this.errors.push(error);
          this.ended = true;
        },
        complete: () => {
          this.ended = true;
        },
      },
    );
  }

  unsubscribe(): void {
    this.stop();
  }
}

/** A graphql-ws client (the `graphql-ws` package over `ws`) against one API instance. */
export function liveClient(baseUrl: string, token: string): Client {
  return createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: true,
  });
}
