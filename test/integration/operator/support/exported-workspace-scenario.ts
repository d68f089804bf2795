import { ApiTokens, authSettings, openApiTokenStore } from '@lomo/auth';
import { loadConfig } from '@lomo/config';
import { silentLogger } from '@lomo/observability';
import { SEND_MESSAGE, sendAndSettle } from '../../api/support/queries';
import { eventually, startStandaloneApi, type RunningApi } from '../../api/support/standalone-api';

const TURNS = 'query($id: ID!) { task(id: $id) { turns(first: 20) { edges { node { id status } } } } }';
const MEMORIES =
  'query { memories(scope: ALL, first: 50) { edges { node { id versions { id evidence { evidenceId } } } } } }';
const FORGET = `mutation($evidenceIds: [ID!]) { forgetMemory(evidenceIds: $evidenceIds, clientRequestId: "export-forget") {
  forgetting { id } } }`;
const CONFIRM = 'mutation($id: ID!) { confirmForgetting(forgettingId: $id) { forgetting { id status } } }';
const FORGETTING = 'query($id: ID!) { forgetting(id: $id) { status } }';
const ROUTED = 'query($id: ID!) { message(id: $id) { routing { outcome } reply { text } } }';

export interface ScenarioWorkspace {
  /** The stopped app's data directory (events.sqlite, blobs/): the caller removes it. */
  dataDir: string;
  workspaceId: string;
  /** The dev token's person, who did most of it. */
  userId: string;
  /** A second person of the workspace, with a private main line of their own. */
  otherUserId: string;
}

/**
 * A realistic workspace log, made by `npm start`'s standalone process with the offline model
 * through the public API: a storyboard the agent writes (a document artefact with its blobs), a
 * brand task whose message forms a memory that is then forgotten (purged blobs, so tombstones),
 * and a second person's "hello" (a private stream of someone else). The app is stopped before
 * this returns, so the log no longer moves.
 */
export async function runExportedWorkspaceScenario(): Promise<ScenarioWorkspace> {
  const api = await startStandaloneApi({}, { keepDataDir: true });
  try {
    const token = api.devToken;
    const me = (await api.gql<{ me: { workspaceId: string; userId: string } }>(token, '{ me { workspaceId userId } }'))
      .data!.me;
    await sendAndSettle(api, token, 'make a storyboard for a lighthouse keeper at dawn');

    const brand = await sendAndSettle(api, token, 'Design our brand kit for the spring launch');
    await send(api, token, "Our brand's main colour is blue.", brand.taskId);
    await settled(api, token, brand.taskId, 2);
    const memories = await eventually(
      () =>
        api.gql<{
          memories: { edges: Array<{ node: { versions: Array<{ evidence: Array<{ evidenceId: string }> }> } }> };
        }>(token, MEMORIES),
      (r) => (r.data?.memories.edges.length ?? 0) > 0,
      'a memory formed',
      60_000,
    );
    const evidenceId = memories.data!.memories.edges[0].node.versions[0].evidence[0].evidenceId;
    const asked = await api.gql<{ forgetMemory: { forgetting: { id: string } } }>(token, FORGET, {
      evidenceIds: [evidenceId],
    });
    if (!asked.data) throw new Error(`forgetMemory failed: ${JSON.stringify(asked.errors)}`);
    const forgettingId = asked.data.forgetMemory.forgetting.id;
    const confirmed = await api.gql(token, CONFIRM, { id: forgettingId });
    if (!confirmed.data) throw new Error(`confirmForgetting failed: ${JSON.stringify(confirmed.errors)}`);
    await eventually(
      () => api.gql<{ forgetting: { status: string } }>(token, FORGETTING, { id: forgettingId }),
      (r) => r.data?.forgetting.status === 'COMPLETED',
      'the forgetting completed',
      120_000,
    ).catch(async (error: unknown) => {
      const last = await api.gql(token, FORGETTING, { id: forgettingId });
      throw new Error(`${String(error)}: ${JSON.stringify(last)}`);
    });

    const otherUserId = 'bob';
    const bob = await issuePersonToken(api.dataDir, me.workspaceId, otherUserId);
    const hello = await send(api, bob, 'hello');
    await eventually(
      () => api.gql<{ message: { reply: { text: string } | null } | null }>(bob, ROUTED, { id: hello }),
      (r) => r.data?.message?.reply != null,
      "bob's hello answered",
      60_000,
    );
    await settled(api, token, brand.taskId, 2);
    return { dataDir: api.dataDir, workspaceId: me.workspaceId, userId: me.userId, otherUserId };
  } finally {
    await api.stop();
  }
}

async function send(api: RunningApi, token: string, text: string, taskId?: string): Promise<string> {
  const sent = await api.gql<{ sendMessage: { messageId: string } }>(token, SEND_MESSAGE, { text, taskId });
  if (!sent.data) throw new Error(`sendMessage failed: ${JSON.stringify(sent.errors)}`);
  return sent.data.sendMessage.messageId;
}

/** Waits until the task has `count` turns and none is still going. */
async function settled(api: RunningApi, token: string, taskId: string, count: number): Promise<void> {
  await eventually(
    () =>
      api.gql<{ task: { turns: { edges: Array<{ node: { status: string } }> } } | null }>(token, TURNS, { id: taskId }),
    (r) => {
      const turns = r.data?.task?.turns.edges ?? [];
      return (
        turns.length >= count &&
        turns.every((t) => ['COMPLETED', 'FAILED', 'CANCELLED', 'WAITING'].includes(t.node.status))
      );
    },
    `${count} settled turns of ${taskId}`,
    60_000,
  );
}

/** A person token of the running app's workspace, issued on its token store as `lomo tokens create` does. */
async function issuePersonToken(dataDir: string, workspaceId: string, userId: string): Promise<string> {
  const config = loadConfig({ LOMO_DATA_DIR: dataDir, LOMO_MODE: 'embedded', NODE_ENV: 'test' });
  const store = await openApiTokenStore(authSettings(config), silentLogger, { cache: false });
  try {
    return (await new ApiTokens(store).issue({ workspaceId, userId, kind: 'person', name: 'second person' })).secret;
  } finally {
    await store.close();
  }
}
