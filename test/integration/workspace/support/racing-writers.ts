import { fork, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../../..');

/** One write of a race, as any lane (a process here; the GraphQL API later) can submit it. */
export type WriteAttempt =
  | { writer: string; kind: 'rewrite'; artifactId: string; baseVersion: number; text: string }
  | {
      writer: string;
      kind: 'snippets';
      artifactId: string;
      baseVersion: number;
      edits: Array<{ old: string; new: string }>;
    }
  | {
      writer: string;
      kind: 'flowNode';
      artifactId: string;
      baseVersion: number;
      nodeId: string;
      baseNodeVersion: number;
      params: Record<string, unknown>;
    };

export type WriteOutcome =
  | { writer: string; ok: true; version: number; otherChangedNodes?: Array<{ nodeId: string; version: number }> }
  | { writer: string; ok: false; code: string; currentVersion?: number };

/**
 * A group of writers that submit their attempts together when told to. Lanes are started,
 * warmed (each has read the artefact, so every writer holds the same base), then released at
 * one instant. A lane for the `editDocument` GraphQL mutation fits the same shape.
 */
export interface WriterLane {
  readonly name: string;
  /** Resolves once the lane has read the artefact and is waiting for the start. */
  warm(workspaceId: string, artifactId: string): Promise<void>;
  /** Submits every attempt concurrently at `startAt` (epoch ms) and collects the outcomes. */
  race(attempts: WriteAttempt[], startAt: number): Promise<WriteOutcome[]>;
  close(): Promise<void>;
}

type FromChild = { type: 'ready' } | { type: 'done'; outcomes: WriteOutcome[] } | { type: 'error'; message: string };

/** An OS process of its own with the command service on the shared SQLite file (racing-writer.child.ts). */
export function processLane(name: string, dir: string): WriterLane {
  const child: ChildProcess = fork(join(__dirname, 'racing-writer.child.ts'), [dir], {
    cwd: root,
    execArgv: ['-r', join(root, 'scripts/register.cjs')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends FromChild['type']>(type: T): Promise<Extract<FromChild, { type: T }>> =>
    new Promise((resolveMessage, reject) => {
      const onMessage = (message: FromChild) => {
        if (message.type === 'error') {
          cleanup();
          reject(new Error(`${name}: ${message.message}`));
        } else if (message.type === type) {
          cleanup();
          resolveMessage(message as Extract<FromChild, { type: T }>);
        }
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`${name} exited with ${code} before sending ${type}`));
      };
      const cleanup = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return {
    name,
    warm: async (workspaceId, artifactId) => {
      const ready = next('ready');
      child.send({ type: 'warm', workspaceId, artifactId });
      await ready;
    },
    race: async (attempts, startAt) => {
      const done = next('done');
      child.send({ type: 'race', attempts, startAt });
      return (await done).outcomes;
    },
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'close' });
      await exited;
    },
  };
}

/** What a lane needs of a running API: its GraphQL call (test/integration/api/support/standalone-api.ts). */
export interface GraphqlClient {
  gql<T>(
    token: string | undefined,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<{ data?: T | null; errors?: ReadonlyArray<{ extensions?: Record<string, unknown> }> }>;
}

const EDIT_DOCUMENT = `mutation($id: ID!, $base: Int!, $content: String, $edits: [SnippetEditInput!]) {
  editDocument(id: $id, baseVersion: $base, content: $content, edits: $edits) { version }
}`;

/** Writers through the API's `editDocument` mutation, of an API process on the same SQLite file. */
export function graphqlLane(name: string, api: GraphqlClient, token: string): WriterLane {
  return {
    name,
    async warm(_workspaceId, artifactId) {
      // The API reads through its projector, which follows the other processes' appends.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const read = await api.gql<{ artifact: { version: number } | null }>(
          token,
          'query($id: ID!) { artifact(id: $id) { version } }',
          { id: artifactId },
        );
        if (read.data?.artifact) return;
        if (Date.now() > deadline) throw new Error(`${name}: the API does not see ${artifactId}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async race(attempts, startAt) {
      await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
      return Promise.all(
        attempts.map(async (a): Promise<WriteOutcome> => {
          if (a.kind === 'flowNode') throw new Error(`${name}: flow lanes go through editFlowNodes, not here`);
          const variables =
            a.kind === 'rewrite'
              ? { id: a.artifactId, base: a.baseVersion, content: a.text }
              : { id: a.artifactId, base: a.baseVersion, edits: a.edits };
          const result = await api.gql<{ editDocument: { version: number } }>(token, EDIT_DOCUMENT, variables);
          if (result.data?.editDocument)
            return { writer: a.writer, ok: true, version: result.data.editDocument.version };
          const extensions = result.errors?.[0]?.extensions ?? {};
          return {
            writer: a.writer,
            ok: false,
            code: String(extensions.code),
            ...(typeof extensions.currentVersion === 'number' ? { currentVersion: extensions.currentVersion } : {}),
          };
        }),
      );
    },
    close: async () => undefined,
  };
}
