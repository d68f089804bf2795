// One racing process: the command service on the shared SQLite file (the embedded default's
// wiring), driven over IPC by racing-writers.ts. Every attempt of a race is submitted at once.
import { ArtifactRefusedError } from '@lomo/workspace';
import { openWorkspaceHarness } from '@lomo/workspace/testing';
import type { WriteAttempt, WriteOutcome } from './racing-writers';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: racing-writer.child.ts <dir>');
const harness = openWorkspaceHarness(dir);
const { service } = harness;
const workspaceId = 'ws1';
const meta = (writer: string) => ({
  workspaceId,
  correlationId: `race-${writer}`,
  actor: { kind: 'user' as const, userId: writer },
});
const by = (writer: string) => ({ kind: 'person' as const, userId: writer });

async function submit(attempt: WriteAttempt): Promise<WriteOutcome> {
  const { writer } = attempt;
  try {
    switch (attempt.kind) {
      case 'rewrite': {
        const r = await service.rewriteDocument(
          { artifactId: attempt.artifactId, baseVersion: attempt.baseVersion, text: attempt.text, by: by(writer) },
          meta(writer),
        );
        return { writer, ok: true, version: r.version };
      }
      case 'snippets': {
        const r = await service.editDocument(
          { artifactId: attempt.artifactId, baseVersion: attempt.baseVersion, edits: attempt.edits, by: by(writer) },
          meta(writer),
        );
        return { writer, ok: true, version: r.version };
      }
      case 'flowNode': {
        const r = await service.editFlowNodes(
          {
            artifactId: attempt.artifactId,
            baseVersion: attempt.baseVersion,
            edits: [{ nodeId: attempt.nodeId, baseNodeVersion: attempt.baseNodeVersion, params: attempt.params }],
            by: by(writer),
          },
          meta(writer),
        );
        return { writer, ok: true, version: r.version, otherChangedNodes: r.otherChangedNodes };
      }
    }
  } catch (error) {
    if (error instanceof ArtifactRefusedError)
      return { writer, ok: false, code: error.code, currentVersion: error.details.currentVersion };
    const e = error as { code?: string; message?: string };
    return { writer, ok: false, code: e.code ?? `UNTYPED: ${e.message ?? String(error)}` };
  }
}

process.on(
  'message',
  (message: {
    type: string;
    workspaceId?: string;
    artifactId?: string;
    attempts?: WriteAttempt[];
    startAt?: number;
  }) => {
    void (async () => {
      try {
        if (message.type === 'warm') {
          // Reading folds the stream and caches the latest text: every writer here bases on it.
          await service.snapshot(message.workspaceId!, message.artifactId!);
          await service.documentText(message.workspaceId!, message.artifactId!);
          process.send!({ type: 'ready' });
        } else if (message.type === 'race') {
          await new Promise((r) => setTimeout(r, Math.max(0, message.startAt! - Date.now())));
          const outcomes = await Promise.all(message.attempts!.map(submit));
          process.send!({ type: 'done', outcomes });
        } else if (message.type === 'close') {
          await harness.close();
          process.disconnect();
        }
      } catch (error) {
        process.send!({
          type: 'error',
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
    })();
  },
);
