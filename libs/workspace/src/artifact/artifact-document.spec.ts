import { deciderSpec } from '@lomo/testing';
import { artifactDecider } from './artifact-decider';
import type { ArtifactEvent } from './artifact-events';
import { textReadPlan } from './artifact-queries';
import { SNAPSHOT_EVERY_VERSIONS } from './artifact-state';
import { applySnippets, sha256Hex, utf8Bytes } from './document-text';
import {
  agent,
  createDocument,
  createFlow,
  fold,
  history,
  ids,
  person,
  snippets,
  storyboard,
} from './artifact.fixtures';

const { given } = deciderSpec(artifactDecider);
const rewrite = (baseVersion: number, text: string, by = person) =>
  ({ type: 'RewriteDocument', baseVersion, text, by }) as const;
const created = () => history(createDocument());
const revisedData = (events: ArtifactEvent[]) => {
  const e = events[0];
  if (e?.type !== 'ArtifactRevised') throw new Error(`expected ArtifactRevised, got ${e?.type}`);
  return e.data;
};

describe('artefact decider: documents', () => {
  it('creates a document whose text is its own first snapshot, addressed by its sha256', () => {
    const [event] = created();
    const h = sha256Hex(storyboard);
    expect(event).toEqual({
      type: 'ArtifactCreated',
      data: expect.objectContaining({
        artifactId: ids.doc,
        kind: 'document',
        content: {
          type: 'document',
          text: {
            hash: h,
            bytes: utf8Bytes(storyboard),
            snapshot: { hash: h, bytes: utf8Bytes(storyboard), contentType: 'text/markdown' },
          },
        },
      }),
    });
  });

  it('a whole rewrite names its base version and becomes the next version', () => {
    const data = revisedData(artifactDecider.decide(rewrite(1, 'v2'), fold(created())));
    expect(data).toMatchObject({ version: 2, baseVersion: 1, by: person, change: { type: 'replaced' } });
  });

  it('a whole rewrite from a version the document moved on from is refused with the current version', () => {
    const events = history(createDocument(), rewrite(1, 'v2 by the person'));
    given(events)
      .when(rewrite(1, 'v2 by the agent', agent()))
      .thenThrows('ARTIFACT_VERSION_CONFLICT');
    expect(() => artifactDecider.decide(rewrite(1, 'x', agent()), fold(events))).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ currentVersion: 2 }) }),
    );
  });

  it('the same rewrite retried by its author from the same base is a no-op, not a conflict', () => {
    given(history(createDocument(), rewrite(1, 'v2', agent(3))))
      .when(rewrite(1, 'v2', agent(3)))
      .then([]);
  });

  it('a base version the document never had is bad input', () => {
    given(created()).when(rewrite(5, 'v?')).thenThrows('ARTIFACT_INVALID_INPUT');
    given(created()).when(rewrite(0, 'v?')).thenThrows('ARTIFACT_INVALID_INPUT');
  });

  it('snippet edits apply on the latest text even from an older base, and store only a patch', () => {
    // Larger than its patches, so these edits write no snapshot.
    const text = storyboard + 'notes '.repeat(2_000);
    const v2 = applySnippets(text, [{ old: 'dawn', new: 'dusk' }]) as string;
    const events = history(createDocument(text), snippets(1, text, [['dawn', 'dusk']]));
    const data = revisedData(
      artifactDecider.decide(snippets(1, v2, [['market', 'fish market']], agent()), fold(events)),
    );
    expect(data).toMatchObject({
      version: 3,
      baseVersion: 1,
      change: {
        type: 'snippets_edited',
        edits: 1,
        summary: '1 snippet, +11 −6 chars',
        patch: { contentType: 'application/json' },
        text: { hash: sha256Hex(v2.replace('market', 'fish market')) },
      },
    });
    // No snapshot on an ordinary edit: the event holds hashes only.
    expect(data.change.type === 'snippets_edited' && data.change.text.snapshot).toBeUndefined();
  });

  it('a snippet that does not occur is refused: SNIPPET_NOT_FOUND, naming it, nothing changed', () => {
    given(created())
      .when(snippets(1, storyboard, [['Scene 9', 'x']]))
      .thenThrows('SNIPPET_NOT_FOUND');
    expect(() => artifactDecider.decide(snippets(1, storyboard, [['Scene 9', 'x']]), fold(created()))).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ failedEdits: [{ index: 0, reason: 'not_found' }], currentVersion: 1 }),
      }),
    );
  });

  it('a snippet that occurs more than once is refused: SNIPPET_NOT_UNIQUE', () => {
    given(created())
      .when(snippets(1, storyboard, [['Scene', 'Shot']]))
      .thenThrows('SNIPPET_NOT_UNIQUE');
  });

  it('several snippets where one fails: nothing is applied, and only the failing one is named', () => {
    const command = snippets(1, storyboard, [
      ['dawn', 'dusk'],
      ['the market', 'the bazaar'],
      ['Scene', 'Shot'],
    ]);
    given(created()).when(command).thenThrows('SNIPPET_NOT_UNIQUE');
    expect(() => artifactDecider.decide(command, fold(created()))).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ failedEdits: [{ index: 2, reason: 'not_unique' }] }),
      }),
    );
  });

  it('a runner handing in a text other than the latest version is caught, also right after a plan of it', () => {
    const text = storyboard + 'notes '.repeat(2_000);
    const events = history(createDocument(text), snippets(1, text, [['dawn', 'dusk']]));
    const v2 = applySnippets(text, [{ old: 'dawn', new: 'dusk' }]) as string;
    // The same length in UTF-16 code units, two more UTF-8 bytes: not the text version 2 recorded.
    const other = v2.replace('notes', 'nötés');
    expect(() => artifactDecider.decide(snippets(2, other, [['market', 'bazaar']]), fold(events))).toThrow(
      'not version 2',
    );
    expect(artifactDecider.decide(snippets(2, v2, [['market', 'bazaar']]), fold(events))).toHaveLength(1);
  });

  it('overlapping snippets are bad input', () => {
    given(created())
      .when(
        snippets(1, storyboard, [
          ['harbour at', 'bay at'],
          ['at dawn', 'at noon'],
        ]),
      )
      .thenThrows('ARTIFACT_INVALID_INPUT');
  });

  it(`writes a full snapshot every ${SNAPSHOT_EVERY_VERSIONS} versions, so a read replays a bounded number of patches`, () => {
    // A text far larger than the patches, so only the version count triggers snapshots here.
    let text = storyboard + 'notes '.repeat(2_000);
    let state = fold(history(createDocument(text)));
    const snapshotted: number[] = [];
    for (let i = 0; i < 2 * SNAPSHOT_EVERY_VERSIONS; i += 1) {
      const old = i === 0 ? 'dawn' : `dawn${i - 1}`;
      const [event] = artifactDecider.decide(
        snippets(state.status === 'live' ? state.version : 0, text, [[old, `dawn${i}`]]),
        state,
      );
      text = text.replace(old, `dawn${i}`);
      if (
        event.type === 'ArtifactRevised' &&
        event.data.change.type === 'snippets_edited' &&
        event.data.change.text.snapshot
      )
        snapshotted.push(event.data.version);
      state = artifactDecider.evolve(state, event);
    }
    expect(snapshotted).toEqual([1 + SNAPSHOT_EVERY_VERSIONS, 1 + 2 * SNAPSHOT_EVERY_VERSIONS]);
    const plan = textReadPlan(state, SNAPSHOT_EVERY_VERSIONS + 10);
    expect(plan?.patches.map((p) => p.version)).toEqual(
      Array.from({ length: 9 }, (_, i) => SNAPSHOT_EVERY_VERSIONS + 2 + i),
    );
  });

  it('writes a snapshot sooner when the patches since the last one outgrow the text', () => {
    const small = 'tiny text';
    const state = fold(history(createDocument(small)));
    const [event] = artifactDecider.decide(
      snippets(1, small, [['tiny', 'a much longer replacement than the text']]),
      state,
    );
    expect(
      event.type === 'ArtifactRevised' &&
        event.data.change.type === 'snippets_edited' &&
        event.data.change.text.snapshot,
    ).toBeTruthy();
  });

  it('restores an old version as a new version, whose text is a snapshot of the old one', () => {
    const events = history(createDocument(), rewrite(1, 'v2'), rewrite(2, 'v3'));
    const data = revisedData(
      artifactDecider.decide({ type: 'RestoreVersion', baseVersion: 3, fromVersion: 1, by: person }, fold(events)),
    );
    const h = sha256Hex(storyboard);
    expect(data).toMatchObject({
      version: 4,
      change: { type: 'restored', fromVersion: 1, content: { text: { hash: h, snapshot: { hash: h } } } },
    });
    given(events)
      .when({ type: 'RestoreVersion', baseVersion: 2, fromVersion: 1, by: person })
      .thenThrows('ARTIFACT_VERSION_CONFLICT');
  });

  it('a document command on a flow is refused: ARTIFACT_KIND_MISMATCH', () => {
    given(history(createFlow())).when(rewrite(1, 'text')).thenThrows('ARTIFACT_KIND_MISMATCH');
  });

  it('a deleted document refuses every write: ARTIFACT_DELETED', () => {
    const deleted = history(
      createDocument(),
      { type: 'RequestDeletion', requestId: ids.request, by: { kind: 'user', userId: 'u1' } },
      { type: 'ConfirmDeletion', requestId: ids.request, confirmedBy: 'u1', by: { kind: 'user', userId: 'u1' } },
    );
    given(deleted).when(rewrite(1, 'v2')).thenThrows('ARTIFACT_DELETED');
    given(deleted)
      .when(snippets(1, storyboard, [['dawn', 'dusk']]))
      .thenThrows('ARTIFACT_DELETED');
    given(deleted).when({ type: 'ReferenceArtifact', taskId: ids.task2, by: person }).thenThrows('ARTIFACT_DELETED');
  });

  it('a write to an artefact that does not exist is refused: ARTIFACT_NOT_FOUND', () => {
    given([]).when(rewrite(1, 'v2')).thenThrows('ARTIFACT_NOT_FOUND');
  });
});
