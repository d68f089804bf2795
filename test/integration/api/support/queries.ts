import { eventually, type RunningApi } from './standalone-api';

export const SEND_MESSAGE = `mutation Send($text: String!, $taskId: ID, $client: String) {
  sendMessage(text: $text, taskId: $taskId, clientMessageId: $client) { messageId created consistencyToken }
}`;

interface Routed {
  message: { routing: { taskId: string | null } | null } | null;
}
interface WithTurn {
  task: { turns: { edges: Array<{ node: { id: string; status: string } }> } } | null;
}

/** The task a message was routed to, once the router has decided. */
export async function taskOfMessage(api: RunningApi, token: string, messageId: string): Promise<string> {
  const routed = await eventually(
    () => api.gql<Routed>(token, 'query($id: ID!) { message(id: $id) { routing { taskId } } }', { id: messageId }),
    (r) => r.data?.message?.routing?.taskId != null,
    'routing',
  );
  return routed.data!.message!.routing!.taskId!;
}

/** Sends a message and waits until its task's first turn has completed: a settled workspace. */
export async function sendAndSettle(
  api: RunningApi,
  token: string,
  text: string,
): Promise<{ messageId: string; taskId: string; turnId: string; consistencyToken: string }> {
  const sent = await api.gql<{ sendMessage: { messageId: string; consistencyToken: string } }>(token, SEND_MESSAGE, {
    text,
  });
  if (!sent.data) throw new Error(`sendMessage failed: ${JSON.stringify(sent.errors)}`);
  const { messageId, consistencyToken } = sent.data.sendMessage;
  const taskId = await taskOfMessage(api, token, messageId);
  const task = await eventually(
    () =>
      api.gql<WithTurn>(
        token,
        'query($id: ID!) { task(id: $id) { turns(first: 5) { edges { node { id status } } } } }',
        {
          id: taskId,
        },
      ),
    (r) => r.data?.task?.turns.edges.some((e) => e.node.status === 'COMPLETED') === true,
    'a completed turn',
  );
  return { messageId, taskId, turnId: task.data!.task!.turns.edges[0].node.id, consistencyToken };
}
