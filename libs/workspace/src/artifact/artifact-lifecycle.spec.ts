import type { Actor } from '@lomo/contracts';
import { checkDecidedEvents, deciderSpec, expectEventTypesOfCategory } from '@lomo/testing';
import fc from 'fast-check';
import { artifactDecider } from './artifact-decider';
import type { ArtifactCommand } from './artifact-commands';
import { artifactEventTypes, type ArtifactEvent } from './artifact-events';
import type { ArtifactState } from './artifact-state';
import { planSnippets } from './document-text';
import { agent, createDocument, createFlow, editNodes, history, ids, person, storyboard } from './artifact.fixtures';

const { given } = deciderSpec(artifactDecider);
const user: Actor = { kind: 'user', userId: 'u1' };
const request: ArtifactCommand = { type: 'RequestDeletion', requestId: ids.request, by: user };
const confirm = (by: Actor = user): ArtifactCommand => ({
  type: 'ConfirmDeletion',
  requestId: ids.request,
  confirmedBy: 'u1',
  by,
});
const viaCheckpoint = (
  approval: { decision: 'approve' | 'reject'; resolvedBy: string } | null,
  taskId = ids.task1,
): ArtifactCommand => ({
  type: 'DeleteWithCheckpoint',
  taskId,
  checkpointId: ids.checkpoint,
  approval,
  by: { kind: 'agent' },
});
const image: ArtifactCommand = {
  type: 'CreateArtifact',
  artifactId: ids.image,
  kind: 'image',
  title: 'Poster',
  by: { kind: 'generation', jobId: ids.request },
  content: { type: 'blob', blob: { hash: 'a'.repeat(64), bytes: 10, contentType: 'image/png' } },
};

describe('artefact decider: life cycle, references, confirmed deletion', () => {
  it('the artefact stream holds exactly the registry’s artifact events', () => {
    expectEventTypesOfCategory('artifact', artifactEventTypes);
  });

  it('creating the same artefact again is a no-op; the same id with other content is refused', () => {
    given(history(createDocument())).when(createDocument()).then([]);
    given(history(createDocument()))
      .when({ ...(createDocument() as Extract<ArtifactCommand, { type: 'CreateArtifact' }>), title: 'Other' })
      .thenThrows('ARTIFACT_ALREADY_EXISTS');
  });

  it('content must match the kind', () => {
    given([])
      .when({ ...(image as Extract<ArtifactCommand, { type: 'CreateArtifact' }>), kind: 'document' })
      .thenThrows('ARTIFACT_INVALID_INPUT');
  });

  it('the same artefact referenced by two tasks is one artefact; a repeat reference is a no-op', () => {
    const events = history(createDocument(storyboard, ids.task1), {
      type: 'ReferenceArtifact',
      taskId: ids.task2,
      by: person,
    });
    expect(events.map((e) => e.type)).toEqual(['ArtifactCreated', 'ArtifactReferenced']);
    given(events).when({ type: 'ReferenceArtifact', taskId: ids.task1, by: agent() }).then([]);
    given(events).when({ type: 'ReferenceArtifact', taskId: ids.task2, by: agent() }).then([]);
  });

  it('deleting without a confirmation is refused: DELETION_NOT_CONFIRMED', () => {
    given(history(createDocument())).when(confirm()).thenThrows('DELETION_NOT_CONFIRMED');
    given(history(createDocument(storyboard, ids.task1)))
      .when(viaCheckpoint(null))
      .thenThrows('DELETION_NOT_CONFIRMED');
  });

  it('a request alone deletes nothing; the person confirming it deletes, and a repeat is a no-op', () => {
    given(history(createDocument()))
      .when(request)
      .then([{ type: 'ArtifactDeletionRequested', data: { requestId: ids.request, by: user } }]);
    given(history(createDocument(), request))
      .when(confirm())
      .then([
        {
          type: 'ArtifactDeleted',
          data: { by: user, confirmation: { kind: 'request', requestId: ids.request, confirmedBy: 'u1' } },
        },
      ]);
    given(history(createDocument(), request, confirm()))
      .when(confirm())
      .then([]);
  });

  it('only the person confirms, as themselves: an agent or another user naming them is refused', () => {
    given(history(createDocument(), request))
      .when(confirm({ kind: 'agent' }))
      .thenThrows('DELETION_NOT_CONFIRMED');
    given(history(createDocument(), request))
      .when(confirm({ kind: 'user', userId: 'u2' }))
      .thenThrows('DELETION_NOT_CONFIRMED');
  });

  it('the agent deletes only with the person’s approval of its task’s checkpoint, for an artefact its task references', () => {
    const doc = history(createDocument(storyboard, ids.task1));
    given(doc)
      .when(viaCheckpoint({ decision: 'reject', resolvedBy: 'u1' }))
      .thenThrows('DELETION_NOT_CONFIRMED');
    given(doc)
      .when(viaCheckpoint({ decision: 'approve', resolvedBy: 'u1' }, ids.task2))
      .thenThrows('DELETION_NOT_CONFIRMED');
    given(doc)
      .when(viaCheckpoint({ decision: 'approve', resolvedBy: 'u1' }))
      .then([
        {
          type: 'ArtifactDeleted',
          data: {
            by: { kind: 'agent' },
            confirmation: { kind: 'checkpoint', taskId: ids.task1, checkpointId: ids.checkpoint },
          },
        },
      ]);
  });

  it('media are replaced as new versions under the base-version rule, and an old one can be restored', () => {
    const next = { hash: 'b'.repeat(64), bytes: 12, contentType: 'image/png' };
    const replaced = history(image, {
      type: 'ReplaceContent',
      baseVersion: 1,
      content: { type: 'blob', blob: next },
      by: person,
    });
    given(replaced)
      .when({ type: 'ReplaceContent', baseVersion: 1, content: { type: 'blob', blob: next }, by: agent() })
      .thenThrows('ARTIFACT_VERSION_CONFLICT');
    given(replaced)
      .when({ type: 'RestoreVersion', baseVersion: 2, fromVersion: 1, by: person })
      .then([
        {
          type: 'ArtifactRevised',
          data: {
            version: 3,
            baseVersion: 2,
            by: person,
            change: {
              type: 'restored',
              fromVersion: 1,
              content: { type: 'blob', blob: { hash: 'a'.repeat(64), bytes: 10, contentType: 'image/png' } },
            },
          },
        },
      ]);
    given(history(createFlow()))
      .when({ type: 'ReplaceContent', baseVersion: 1, content: { type: 'blob', blob: next }, by: person })
      .thenThrows('ARTIFACT_KIND_MISMATCH');
  });

  it('random command sequences: every decided event parses with its contract schema, refusals are typed', () => {
    // The runner's part: hand in the current text, which the decider only knows by hash.
    const texts = new Map<string, string>();
    const remember = (command: ArtifactCommand, state: ArtifactState, events: ArtifactEvent[]) => {
      for (const e of events) {
        if (e.type === 'ArtifactCreated' && command.type === 'CreateArtifact' && command.content.type === 'document')
          texts.set(e.data.content.type === 'document' ? e.data.content.text.hash : '', command.content.text);
        if (e.type === 'ArtifactRevised' && command.type === 'RewriteDocument')
          texts.set(
            e.data.change.type === 'replaced' && e.data.change.content.type === 'document'
              ? e.data.change.content.text.hash
              : '',
            command.text,
          );
        if (e.type === 'ArtifactRevised' && command.type === 'EditDocumentSnippets') {
          const plan = planSnippets(command.currentText, command.edits);
          if (plan.ok) texts.set(plan.textHash, plan.text);
        }
      }
      return state;
    };
    const decider = {
      ...artifactDecider,
      decide: (command: ArtifactCommand, state: ArtifactState) => {
        const events = artifactDecider.decide(command, state);
        remember(command, state, events);
        return events;
      },
    };
    const words = fc.constantFrom('dawn', 'market', 'lighthouse', 'Scene', 'harbour', 'dusk');
    const version = fc.integer({ min: 1, max: 6 });
    const by = fc.constantFrom(person, agent(0), agent(1));
    const actor = fc.constantFrom<Actor>(user, { kind: 'agent' });
    const nodeId = fc.constantFrom('n0', 'n1', 'n2', 'n9');
    const command: fc.Arbitrary<ArtifactCommand> = fc.oneof(
      fc.record({
        type: fc.constant('RewriteDocument' as const),
        baseVersion: version,
        text: words.map((w) => `${storyboard}${w}`),
        by,
      }),
      fc.record({
        type: fc.constant('EditDocumentSnippets' as const),
        baseVersion: version,
        edits: fc.array(fc.record({ old: words, new: words.map((w) => `${w}!`) }), { minLength: 1, maxLength: 2 }),
        by,
        currentText: fc.constant(''),
      }),
      fc.record({
        type: fc.constant('EditFlowNodes' as const),
        baseVersion: version,
        edits: fc.uniqueArray(
          fc.record({ nodeId, baseNodeVersion: version, params: words.map((w) => ({ prompt: w })) }),
          { selector: (e) => e.nodeId, minLength: 1, maxLength: 2 },
        ),
        by,
      }),
      fc.record({
        type: fc.constant('ChangeFlowStructure' as const),
        baseStructureVersion: fc.integer({ min: 1, max: 3 }),
        addNodes: fc.constantFrom([], [{ nodeId: 'n9', kind: 'x', params: {} }]),
        removeNodeIds: fc.constantFrom([], ['n2'], ['n9']),
        addEdges: fc.constantFrom([], [{ edgeId: 'e9', from: 'n0', to: 'n9' }]),
        removeEdgeIds: fc.constantFrom([], ['e1'], ['e9']),
        by,
      }),
      fc.record({ type: fc.constant('RestoreVersion' as const), baseVersion: version, fromVersion: version, by }),
      fc.record({ type: fc.constant('ReferenceArtifact' as const), taskId: fc.constantFrom(ids.task1, ids.task2), by }),
      fc.record({ type: fc.constant('RequestDeletion' as const), requestId: fc.constant(ids.request), by: actor }),
      fc.record({
        type: fc.constant('ConfirmDeletion' as const),
        requestId: fc.constant(ids.request),
        confirmedBy: fc.constant('u1'),
        by: actor,
      }),
      fc.record({
        type: fc.constant('DeleteWithCheckpoint' as const),
        taskId: fc.constant(ids.task1),
        checkpointId: fc.constant(ids.checkpoint),
        approval: fc.constantFrom(null, { decision: 'approve' as const, resolvedBy: 'u1' }),
        by: actor,
      }),
    );
    const first = fc.constantFrom(createDocument(storyboard, ids.task1), createFlow(3));
    checkDecidedEvents({
      decider,
      eventTypes: artifactEventTypes,
      first,
      command,
      prepare: (c, state) => {
        if (c.type === 'EditDocumentSnippets' && state.status === 'live' && state.body.type === 'document')
          return { ...c, currentText: texts.get(state.body.text.hash) ?? '' };
        return c;
      },
      run: { numRuns: 300, seed: 14 },
    });
  });

  it('flows: a removed node cannot be edited even by a writer whose base predates the removal', () => {
    given(
      history(createFlow(3), {
        type: 'ChangeFlowStructure',
        baseStructureVersion: 1,
        addNodes: [],
        removeNodeIds: ['n0'],
        addEdges: [],
        removeEdgeIds: ['e0'],
        by: person,
      }),
    )
      .when(editNodes(1, [['n0', 1, 'x']]))
      .thenThrows('FLOW_NODE_DELETED');
  });
});
