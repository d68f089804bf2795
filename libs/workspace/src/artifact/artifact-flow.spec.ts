import { deciderSpec } from '@lomo/testing';
import { artifactDecider } from './artifact-decider';
import type { ArtifactCommand } from './artifact-commands';
import { nodesChangedSince } from './artifact-queries';
import type { ArtifactState } from './artifact-state';
import { agent, createFlow, editNodes, fold, history, ids, person } from './artifact.fixtures';

const { given } = deciderSpec(artifactDecider);
const flowOf = (state: ArtifactState) => {
  if (state.status !== 'live' || state.body.type !== 'flow') throw new Error('not a live flow');
  return state.body;
};
const structure = (
  baseStructureVersion: number,
  change: Partial<Omit<Extract<ArtifactCommand, { type: 'ChangeFlowStructure' }>, 'type'>>,
): ArtifactCommand => ({
  type: 'ChangeFlowStructure',
  baseStructureVersion,
  addNodes: [],
  removeNodeIds: [],
  addEdges: [],
  removeEdgeIds: [],
  by: person,
  ...change,
});

describe('artefact decider: flows (per-node optimistic concurrency)', () => {
  it('creates a flow whose nodes start at version 1 and whose structure is version 1', () => {
    const body = flowOf(fold(history(createFlow(3))));
    expect(Object.values(body.nodes).map((n) => [n.nodeId, n.version])).toEqual([
      ['n0', 1],
      ['n1', 1],
      ['n2', 1],
    ]);
    expect(body.structureVersion).toBe(1);
  });

  it('refuses a flow whose edges reference nodes it does not have: FLOW_INVALID_STRUCTURE', () => {
    given([])
      .when({
        type: 'CreateArtifact',
        artifactId: ids.flow,
        kind: 'flow',
        title: 'Broken',
        by: person,
        content: {
          type: 'flow',
          nodes: [{ nodeId: 'a', kind: 'x', params: {} }],
          edges: [{ edgeId: 'e', from: 'a', to: 'b' }],
        },
      })
      .thenThrows('FLOW_INVALID_STRUCTURE');
  });

  it('an edit names base node versions; each touched node rises by one, all at one artefact version', () => {
    given(history(createFlow(3)))
      .when(
        editNodes(1, [
          ['n0', 1, 'wide'],
          ['n2', 1, 'close'],
        ]),
      )
      .then([
        {
          type: 'FlowNodeRevised',
          data: {
            version: 2,
            nodeId: 'n0',
            nodeVersion: 2,
            baseNodeVersion: 1,
            params: { prompt: 'wide' },
            by: person,
          },
        },
        {
          type: 'FlowNodeRevised',
          data: {
            version: 2,
            nodeId: 'n2',
            nodeVersion: 2,
            baseNodeVersion: 1,
            params: { prompt: 'close' },
            by: person,
          },
        },
      ]);
  });

  it('the person edits node A while the agent edits node B: both apply, and the agent is told A changed', () => {
    const afterPerson = history(createFlow(3), editNodes(1, [['n0', 1, 'person wide']]));
    const state = fold(afterPerson);
    const events = artifactDecider.decide(editNodes(1, [['n1', 1, 'agent close']], agent()), state);
    expect(events).toHaveLength(1);
    const after = events.reduce(artifactDecider.evolve, state);
    expect(nodesChangedSince(flowOf(after), 1, new Set(['n1']))).toEqual([{ nodeId: 'n0', version: 2 }]);
    expect(flowOf(after).nodes.n0.params).toEqual({ prompt: 'person wide' });
    expect(flowOf(after).nodes.n1.params).toEqual({ prompt: 'agent close' });
  });

  it('the agent edits node A after the person did: refused with the new node version', () => {
    const afterPerson = history(createFlow(3), editNodes(1, [['n0', 1, 'person wide']]));
    given(afterPerson)
      .when(editNodes(1, [['n0', 1, 'agent wide']], agent()))
      .thenThrows('FLOW_NODE_CONFLICT');
    expect(() =>
      artifactDecider.decide(
        editNodes(
          1,
          [
            ['n0', 1, 'agent'],
            ['n1', 1, 'b'],
          ],
          agent(),
        ),
        fold(afterPerson),
      ),
    ).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ changedNodes: [{ nodeId: 'n0', version: 2 }], currentVersion: 2 }),
      }),
    );
  });

  it('an edit to a node removed since its base is refused: FLOW_NODE_DELETED', () => {
    const removed = history(createFlow(3), structure(1, { removeNodeIds: ['n2'], removeEdgeIds: ['e1'] }));
    given(removed)
      .when(editNodes(1, [['n2', 1, 'too late']], agent()))
      .thenThrows('FLOW_NODE_DELETED');
  });

  it('the same node edit retried by the same tool call is a no-op', () => {
    given(history(createFlow(3), editNodes(1, [['n0', 1, 'wide']], agent(2))))
      .when(editNodes(1, [['n0', 1, 'wide']], agent(2)))
      .then([]);
  });

  it('a structure change names the base structure version: a stale one is FLOW_STRUCTURE_CONFLICT', () => {
    const changed = history(
      createFlow(3),
      structure(1, { addNodes: [{ nodeId: 'n9', kind: 'video.generate', params: {} }] }),
    );
    expect(flowOf(fold(changed)).structureVersion).toBe(2);
    given(changed)
      .when(structure(1, { addNodes: [{ nodeId: 'n8', kind: 'x', params: {} }], by: agent() }))
      .thenThrows('FLOW_STRUCTURE_CONFLICT');
  });

  it('node edits do not move the structure version, so a structure change still applies after them', () => {
    const edited = history(createFlow(3), editNodes(1, [['n0', 1, 'wide']]));
    given(edited)
      .when(structure(1, { addEdges: [{ edgeId: 'e9', from: 'n0', to: 'n2' }] }))
      .then([
        {
          type: 'FlowStructureChanged',
          data: {
            version: 3,
            structureVersion: 2,
            baseStructureVersion: 1,
            addedNodes: [],
            removedNodeIds: [],
            addedEdges: [{ edgeId: 'e9', from: 'n0', to: 'n2' }],
            removedEdgeIds: [],
            by: person,
          },
        },
      ]);
  });

  it('edges must reference existing nodes: removing a node but keeping its edge, or an edge to nowhere, is refused', () => {
    given(history(createFlow(3)))
      .when(structure(1, { removeNodeIds: ['n2'] }))
      .thenThrows('FLOW_INVALID_STRUCTURE');
    given(history(createFlow(3)))
      .when(structure(1, { addEdges: [{ edgeId: 'e9', from: 'n0', to: 'zz' }] }))
      .thenThrows('FLOW_INVALID_STRUCTURE');
    given(history(createFlow(3)))
      .when(structure(1, { removeEdgeIds: ['nope'] }))
      .thenThrows('FLOW_INVALID_STRUCTURE');
    given(history(createFlow(3)))
      .when(structure(1, { addNodes: [{ nodeId: 'n0', kind: 'x', params: {} }] }))
      .thenThrows('FLOW_INVALID_STRUCTURE');
  });

  it('a node added again under a removed id continues its version count, so an old base never matches', () => {
    const events = history(
      createFlow(3),
      editNodes(1, [['n2', 1, 'v2']]),
      structure(1, { removeNodeIds: ['n2'], removeEdgeIds: ['e1'] }),
      structure(2, { addNodes: [{ nodeId: 'n2', kind: 'image.generate', params: {} }] }),
    );
    expect(flowOf(fold(events)).nodes.n2.version).toBe(3);
    given(events)
      .when(editNodes(2, [['n2', 2, 'stale']], agent()))
      .thenThrows('FLOW_NODE_CONFLICT');
  });

  it('restoring a flow keeps unchanged nodes at their version and raises the others', () => {
    const events = history(createFlow(2), editNodes(1, [['n0', 1, 'changed']]));
    const [event] = artifactDecider.decide(
      {
        type: 'RestoreVersion',
        baseVersion: 2,
        fromVersion: 1,
        by: person,
        fromFlow: {
          nodes: [
            { nodeId: 'n0', kind: 'image.generate', params: { prompt: 'shot 0' } },
            { nodeId: 'n1', kind: 'image.generate', params: { prompt: 'shot 1' } },
          ],
          edges: [{ edgeId: 'e0', from: 'n0', to: 'n1' }],
        },
      },
      fold(events),
    );
    const state = artifactDecider.evolve(fold(events), event);
    expect(Object.values(flowOf(state).nodes).map((n) => [n.nodeId, n.version, n.params.prompt])).toEqual([
      ['n0', 3, 'shot 0'],
      ['n1', 1, 'shot 1'],
    ]);
  });

  it('an empty or self-contradictory edit is bad input', () => {
    given(history(createFlow(3)))
      .when(editNodes(1, []))
      .thenThrows('ARTIFACT_INVALID_INPUT');
    given(history(createFlow(3)))
      .when(
        editNodes(1, [
          ['n0', 1, 'a'],
          ['n0', 1, 'b'],
        ]),
      )
      .thenThrows('ARTIFACT_INVALID_INPUT');
    given(history(createFlow(3)))
      .when(editNodes(1, [['zz', 1, 'a']]))
      .thenThrows('ARTIFACT_INVALID_INPUT');
    given(history(createFlow(3)))
      .when(structure(1, {}))
      .thenThrows('ARTIFACT_INVALID_INPUT');
  });
});
