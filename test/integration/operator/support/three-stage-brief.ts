import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { SEND_MESSAGE, taskOfMessage } from '../../api/support/queries';
import { eventually, startStandaloneApi, type RunningApi } from '../../api/support/standalone-api';

/** Article §8's three-stage brief: a short video, script → storyboard (with its review card) → shots. */
export const THREE_STAGE_BRIEF =
  'Please make a short video for the riverside bakery: a baker at dawn, fresh loaves on the counter, the first customers stepping in from the rain';

export interface RecordedThreeStageBrief {
  /** The stopped app's data directory, kept: the CLI runs on it afterwards. The caller removes it. */
  dataDir: string;
  workspaceId: string;
  taskId: string;
  /** An operator's token on that data directory. */
  operator: string;
}

/**
 * Records the three-stage brief on `npm start`'s standalone app and offline model: sends it,
 * approves the review and budget cards, waits for the runtime's own decision to finish (the
 * checklist complete, three simulated videos made), issues an operator token and stops the app.
 * `whileRunning` runs alongside (a test samples read models with it) and is awaited before the stop.
 * The CLI is built first: the tests run it as an operator does (`node dist/apps/cli/main.js`).
 */
export async function recordThreeStageBrief(
  options: {
    /** The app's environment on top of the test defaults. */
    env?: Record<string, string>;
    whileRunning?: (run: {
      api: RunningApi;
      workspaceId: string;
      taskId: string;
      done: () => boolean;
    }) => Promise<void>;
  } = {},
): Promise<RecordedThreeStageBrief> {
  const whileRunning = options.whileRunning ?? (async () => undefined);
  execFileSync(process.execPath, ['scripts/build.cjs'], {
    cwd: path.resolve(__dirname, '../../../..'),
    stdio: 'ignore',
  });
  const api = await startStandaloneApi(options.env ?? {}, { keepDataDir: true });
  try {
    const token = api.devToken;
    const me = await api.gql<{ me: { workspaceId: string } }>(token, '{ me { workspaceId } }');
    const workspaceId = me.data!.me.workspaceId;
    const sent = await api.gql<{ sendMessage: { messageId: string } }>(token, SEND_MESSAGE, {
      text: THREE_STAGE_BRIEF,
    });
    const taskId = await taskOfMessage(api, token, sent.data!.sendMessage.messageId);
    let finished = false;
    const alongside = whileRunning({ api, workspaceId, taskId, done: () => finished });

    const read = () =>
      api.gql<{
        task: {
          pendingCheckpoints: Array<{ checkpointId: string; kind: string }>;
          lastContinuation: { reason: string } | null;
        };
      }>(
        token,
        'query($id: ID!) { task(id: $id) { pendingCheckpoints { checkpointId kind } lastContinuation { reason } } }',
        { id: taskId },
      );
    const atCards = await eventually(
      read,
      (r) => (r.data?.task.pendingCheckpoints.length ?? 0) >= 2,
      'the review and budget cards',
      60_000,
    );
    for (const card of atCards.data!.task.pendingCheckpoints) {
      await api.gql(
        token,
        'mutation($t: ID!, $c: ID!) { resolveCheckpoint(taskId: $t, checkpointId: $c, decision: APPROVE) { changed } }',
        { t: taskId, c: card.checkpointId },
      );
    }
    // Three simulated videos, one after another, then the runtime's own decision to finish.
    await eventually(
      read,
      (r) => r.data?.task.lastContinuation?.reason === 'checklist_complete',
      'the checklist complete',
      200_000,
    );
    finished = true;
    await alongside;
    const created = await api.tokens(['create', '--workspace', 'ops', '--user', 'sam', '--kind', 'operator']);
    const operator = (JSON.parse(created.stdout.trim()) as { token: string }).token;
    return { dataDir: api.dataDir, workspaceId, taskId, operator };
  } finally {
    await api.stop();
  }
}
