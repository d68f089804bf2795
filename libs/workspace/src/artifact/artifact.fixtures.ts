import type { ArtifactAuthor } from '@lomo/contracts';
import type { ArtifactEvent } from './artifact-events';
import { artifactDecider } from './artifact-decider';
import type { ArtifactCommand, NewFlowNode } from './artifact-commands';
import type { ArtifactState } from './artifact-state';

// Shared by the artefact decider specs: ids, authors and histories built through the decider
// itself, so a fixture can never hold an event the decider would not produce.

export const ids = {
  doc: '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60',
  flow: '1b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a61',
  image: '2b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a62',
  task1: '3b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a63',
  task2: '4b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a64',
  request: '5b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a65',
  checkpoint: '6b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a66',
  turn: '7b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a67',
};

export const person: ArtifactAuthor = { kind: 'person', userId: 'u1' };
export const otherPerson: ArtifactAuthor = { kind: 'person', userId: 'u2' };
export const agent = (index = 0): ArtifactAuthor => ({
  kind: 'agent',
  taskId: ids.task1,
  callId: `${ids.turn}:1:${index}`,
});
export const hash = (c: string) => (c.repeat(64) as string).slice(0, 64);

export const storyboard = 'Scene 1: the harbour at dawn.\nScene 2: the market.\nScene 3: the lighthouse.\n';

/** Runs commands through the decider and returns every event, failing on a refusal. */
export function history(
  ...commands: Array<ArtifactCommand | ((state: ArtifactState) => ArtifactCommand)>
): ArtifactEvent[] {
  const events: ArtifactEvent[] = [];
  let state = artifactDecider.initialState();
  for (const c of commands) {
    const decided = artifactDecider.decide(typeof c === 'function' ? c(state) : c, state);
    for (const e of decided) state = artifactDecider.evolve(state, e);
    events.push(...decided);
  }
  return events;
}

export const fold = (events: readonly ArtifactEvent[]): ArtifactState =>
  events.reduce(artifactDecider.evolve, artifactDecider.initialState());

export const createDocument = (text = storyboard, taskId?: string): ArtifactCommand => ({
  type: 'CreateArtifact',
  artifactId: ids.doc,
  kind: 'document',
  title: 'Storyboard',
  by: taskId === undefined ? person : agent(),
  ...(taskId !== undefined ? { taskId } : {}),
  content: { type: 'document', text, contentType: 'text/markdown' },
});

export const nodes = (n: number): NewFlowNode[] =>
  Array.from({ length: n }, (_, i) => ({ nodeId: `n${i}`, kind: 'image.generate', params: { prompt: `shot ${i}` } }));

export const createFlow = (n = 3): ArtifactCommand => ({
  type: 'CreateArtifact',
  artifactId: ids.flow,
  kind: 'flow',
  title: 'Trailer flow',
  by: person,
  content: {
    type: 'flow',
    nodes: nodes(n),
    edges: Array.from({ length: Math.max(0, n - 1) }, (_, i) => ({ edgeId: `e${i}`, from: `n${i}`, to: `n${i + 1}` })),
  },
});

export const editNodes = (
  baseVersion: number,
  edits: Array<[nodeId: string, baseNodeVersion: number, prompt: string]>,
  by: ArtifactAuthor = person,
): ArtifactCommand => ({
  type: 'EditFlowNodes',
  baseVersion,
  edits: edits.map(([nodeId, baseNodeVersion, prompt]) => ({ nodeId, baseNodeVersion, params: { prompt } })),
  by,
});

export const snippets = (
  baseVersion: number,
  currentText: string,
  edits: Array<[string, string]>,
  by: ArtifactAuthor = person,
): ArtifactCommand => ({
  type: 'EditDocumentSnippets',
  baseVersion,
  edits: edits.map(([o, n]) => ({ old: o, new: n })),
  by,
  currentText,
});
