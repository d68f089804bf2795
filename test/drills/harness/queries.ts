/** The GraphQL the scripted person sends: only the public API, as a frontend would. */

export const SEND_MESSAGE = `mutation($text: String!, $client: String) {
  sendMessage(text: $text, clientMessageId: $client) { messageId created language }
}`;

/** A message typed into a task's own view (the person names the task). */
export const SEND_MESSAGE_TO_TASK = `mutation($text: String!, $task: ID!, $client: String) {
  sendMessage(text: $text, taskId: $task, clientMessageId: $client) { messageId created language }
}`;

export const MESSAGE_ROUTING = `query($id: ID!) { message(id: $id) { routing { taskId outcome } } }`;

/** `consistentWith`: the token of the person's last mutation on the task (read your writes). */
export const TASK_STATE = `query($id: ID!, $consistentWith: String) { task(id: $id, consistentWith: $consistentWith) {
  id status kind language activeTurnId openCheckpoints
  lastContinuation { reason decision turnId }
  checklist { itemId status title linkedArtifactIds }
  pendingCheckpoints { checkpointId kind itemId question }
} }`;

export interface TaskState {
  id: string;
  status: string;
  kind: string | null;
  language: string | null;
  activeTurnId: string | null;
  openCheckpoints: number;
  lastContinuation: { reason: string; decision: string; turnId: string } | null;
  checklist: Array<{ itemId: string; status: string; title: string; linkedArtifactIds: string[] }>;
  pendingCheckpoints: Array<{ checkpointId: string; kind: string; itemId: string | null; question: string }>;
}

export const RESOLVE_CHECKPOINT = `mutation($t: ID!, $c: ID!, $d: CheckpointDecision!, $note: String) {
  resolveCheckpoint(taskId: $t, checkpointId: $c, decision: $d, note: $note) { changed consistencyToken }
}`;

export const TASK_ARTIFACTS = `query($task: ID!) { artifacts(taskId: $task, first: 100) { edges { node {
  id kind title version deleted updatedAt
} } } }`;

export interface ArtifactRow {
  id: string;
  kind: string;
  title: string;
  version: number;
  deleted: boolean;
  updatedAt: string;
}

export const DOCUMENT = `query($id: ID!) { artifact(id: $id) { id version document { text version } } }`;
export const EDIT_DOCUMENT = `mutation($id: ID!, $base: Int!, $content: String) {
  editDocument(id: $id, baseVersion: $base, content: $content) { artifactId version }
}`;

export const FLOW = `query($id: ID!) { artifact(id: $id) { id version flow { version nodes { nodeId kind version paramsJson } } } }`;
export const EDIT_FLOW_NODES = `mutation($id: ID!, $base: Int!, $edits: [FlowNodeEditInput!]!) {
  editFlowNodes(flowId: $id, baseVersion: $base, edits: $edits) { artifactId version }
}`;

export const MEMORIES = `query { memories(first: 100) { edges { node {
  id status subject currentVersion { text value }
} } } }`;
export const FORGET_MEMORY = `mutation($id: ID!, $key: String) {
  forgetMemory(memoryId: $id, clientRequestId: $key) { forgetting { id status } }
}`;
export const CONFIRM_FORGETTING = `mutation($id: ID!) { confirmForgetting(forgettingId: $id) { forgetting { id status } } }`;
export const FORGETTING = `query($id: ID!) { forgetting(id: $id) { id status } }`;
export const CORRECT_MEMORY = `mutation($id: ID!, $text: String!, $value: String, $key: String) {
  correctMemory(memoryId: $id, text: $text, value: $value, clientCorrectionId: $key) { __typename }
}`;

export const STOP_TASK = `mutation($id: ID!) { stopTask(taskId: $id, reason: "the person stopped it") { changed } }`;
