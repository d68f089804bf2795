import { assertNever } from '@lomo/domain';
import type { EditDocumentSnippets, ReplaceContent, RestoreVersion, RewriteDocument } from './artifact-commands';
import type { ArtifactContentData, ArtifactEvent, ArtifactEventOf, FlowNodeData } from './artifact-events';
import { atCurrentVersion, invalid, knownBase, live, liveOfType, refuse, sameJson } from './artifact-guards';
import {
  SNAPSHOT_EVERY_VERSIONS,
  type ArtifactState,
  type ContentLink,
  type LiveArtifact,
  type TextLink,
} from './artifact-state';
import { PATCH_CONTENT_TYPE, planSnippets, serializePatch, sha256Hex, utf8Bytes } from './document-text';
import { checkFlowStructure } from './flow-structure';

type Change = ArtifactEventOf<'ArtifactRevised'>['data']['change'];

/** What a whole write asked for, derived from its change: evolve records it, deciders compare. */
export function fingerprintOf(change: Change): string {
  switch (change.type) {
    case 'snippets_edited':
      return `patch:${change.patch.hash}`;
    case 'restored':
      return `restore:${change.fromVersion}`;
    case 'replaced':
      return `replace:${contentFingerprint(change.content)}`;
    default:
      return assertNever(change, 'artefact change');
  }
}

function contentFingerprint(content: ArtifactContentData): string {
  switch (content.type) {
    case 'document':
      return content.text.hash;
    case 'blob':
      return content.blob.hash;
    case 'asset_set':
      return JSON.stringify(content.members);
    case 'flow':
      return JSON.stringify([content.nodes, content.edges]);
    default:
      return assertNever(content, 'artefact content');
  }
}

/**
 * The same author asking for the same thing from the same base as the last write: a retry. A
 * retry's base is behind the current version, so the fingerprint (a snippet edit hashes its
 * patch for it) is only computed once the cheap checks hold.
 */
function isRepeat(
  artifact: LiveArtifact,
  by: RewriteDocument['by'],
  baseVersion: number,
  fingerprint: () => string,
): boolean {
  const last = artifact.lastWrite;
  return (
    last !== null &&
    last.baseVersion === baseVersion &&
    artifact.version > baseVersion &&
    sameJson(last.by, by) &&
    last.fingerprint === fingerprint()
  );
}

function revised(
  artifact: LiveArtifact,
  baseVersion: number,
  by: RewriteDocument['by'],
  change: Change,
): ArtifactEvent[] {
  return [{ type: 'ArtifactRevised', data: { version: artifact.version + 1, baseVersion, by, change } }];
}

/** A whole rewrite names its base version and is refused if the document moved on. */
export function rewriteDocument(command: RewriteDocument, state: ArtifactState): ArtifactEvent[] {
  const doc = liveOfType(state, 'document', 'rewrite');
  const hash = sha256Hex(command.text);
  const bytes = utf8Bytes(command.text);
  const change: Change = {
    type: 'replaced',
    content: { type: 'document', text: { hash, bytes, snapshot: { hash, bytes, contentType: doc.body.contentType } } },
  };
  if (isRepeat(doc, command.by, command.baseVersion, () => fingerprintOf(change))) return [];
  atCurrentVersion(doc, command.baseVersion);
  return revised(doc, command.baseVersion, command.by, change);
}

/**
 * Snippet edits apply on the latest text, all or nothing: each `old` must occur exactly once.
 * Only the patch is stored (a small blob); the full text is snapshotted every
 * SNAPSHOT_EVERY_VERSIONS versions, or sooner when the patches since the last snapshot outgrow the
 * text, so reading any version replays a bounded number of small patches.
 */
export function editDocumentSnippets(command: EditDocumentSnippets, state: ArtifactState): ArtifactEvent[] {
  const doc = liveOfType(state, 'document', 'edit snippets of');
  knownBase(doc, command.baseVersion);
  if (command.edits.length === 0 || command.edits.length > 1000)
    invalid(doc, 'A snippet edit needs 1 to 1000 snippets');
  if (isRepeat(doc, command.by, command.baseVersion, () => `patch:${sha256Hex(serializePatch(command.edits))}`))
    return [];
  // The runner's text cache is keyed by hash; a length check catches a runner handing in another text cheaply.
  if (command.currentText.length > doc.body.text.bytes || utf8Bytes(command.currentText) !== doc.body.text.bytes)
    throw new Error(`The runner passed a text that is not version ${doc.version} of ${doc.artifactId}`);
  const plan = planSnippets(command.currentText, command.edits);
  if (!plan.ok) {
    if ('overlapping' in plan) invalid(doc, `Snippets ${plan.overlapping[0]} and ${plan.overlapping[1]} overlap`);
    const missing = plan.failed.some((f) => f.reason === 'not_found');
    return refuse(
      doc,
      missing ? 'SNIPPET_NOT_FOUND' : 'SNIPPET_NOT_UNIQUE',
      `${plan.failed.length} of ${command.edits.length} snippets do not occur exactly once in version ${doc.version}: nothing changed`,
      { currentVersion: doc.version, failedEdits: plan.failed },
    );
  }
  const since = doc.body.sinceSnapshot;
  const snapshot = since.versions + 1 >= SNAPSHOT_EVERY_VERSIONS || since.patchBytes + plan.patchBytes > plan.textBytes;
  const text = {
    hash: plan.textHash,
    bytes: plan.textBytes,
    ...(snapshot
      ? { snapshot: { hash: plan.textHash, bytes: plan.textBytes, contentType: doc.body.contentType } }
      : {}),
  };
  return revised(doc, command.baseVersion, command.by, {
    type: 'snippets_edited',
    patch: { hash: plan.patchHash, bytes: plan.patchBytes, contentType: PATCH_CONTENT_TYPE },
    edits: command.edits.length,
    summary: plan.summary,
    text,
  });
}

/** Media and asset sets: a whole new version, under the same base-version rule as a rewrite. */
export function replaceContent(command: ReplaceContent, state: ArtifactState): ArtifactEvent[] {
  const artifact = live(state);
  if (artifact.body.type !== command.content.type)
    refuse(
      artifact,
      'ARTIFACT_KIND_MISMATCH',
      `A ${artifact.kind} artefact cannot take ${command.content.type} content`,
      {
        currentVersion: artifact.version,
      },
    );
  const content: ArtifactContentData =
    command.content.type === 'blob'
      ? { type: 'blob', blob: command.content.blob }
      : { type: 'asset_set', members: [...command.content.members] };
  const change: Change = { type: 'replaced', content };
  if (isRepeat(artifact, command.by, command.baseVersion, () => fingerprintOf(change))) return [];
  atCurrentVersion(artifact, command.baseVersion);
  return revised(artifact, command.baseVersion, command.by, change);
}

function findLink<L extends { version: number; prev: L | null }>(head: L, version: number): L | undefined {
  for (let link: L | null = head; link !== null; link = link.prev) if (link.version === version) return link;
  return undefined;
}

/** An old version comes back as a new version; flows keep every node version rising. */
export function restoreVersion(command: RestoreVersion, state: ArtifactState): ArtifactEvent[] {
  const artifact = live(state);
  const fingerprint = `restore:${command.fromVersion}`;
  if (isRepeat(artifact, command.by, command.baseVersion, () => fingerprint)) return [];
  atCurrentVersion(artifact, command.baseVersion);
  knownBase(artifact, command.fromVersion);
  if (command.fromVersion === artifact.version)
    invalid(artifact, `Version ${command.fromVersion} is the current version`);
  const content = restoredContent(artifact, command);
  return revised(artifact, command.baseVersion, command.by, {
    type: 'restored',
    fromVersion: command.fromVersion,
    content,
  });
}

function restoredContent(artifact: LiveArtifact, command: RestoreVersion): ArtifactContentData {
  const { body } = artifact;
  const missing = (): never => invalid(artifact, `Version ${command.fromVersion} holds no content of its own`);
  switch (body.type) {
    case 'document': {
      const link: TextLink = findLink(body.history, command.fromVersion) ?? missing();
      const { hash, bytes } = link.text;
      // The restored text becomes a snapshot (content-addressed: the same blob if it was one already).
      return { type: 'document', text: { hash, bytes, snapshot: { hash, bytes, contentType: body.contentType } } };
    }
    case 'blob': {
      const link: ContentLink<typeof body.blob> = findLink(body.history, command.fromVersion) ?? missing();
      return { type: 'blob', blob: link.content };
    }
    case 'asset_set': {
      const link = findLink(body.history, command.fromVersion) ?? missing();
      return { type: 'asset_set', members: [...link.content] };
    }
    case 'flow': {
      const from = command.fromFlow ?? invalid(artifact, 'Restoring a flow needs the flow as it was at that version');
      checkFlowStructure(artifact, from.nodes, from.edges);
      const nodes: FlowNodeData[] = from.nodes.map((n) => {
        const now = body.nodes[n.nodeId];
        // Unchanged nodes keep their version (no spurious conflicts); every other one rises past
        // any version it ever had, so a writer based on an old version is refused.
        if (now !== undefined && now.kind === n.kind && sameJson(now.params, n.params))
          return { nodeId: n.nodeId, kind: n.kind, params: now.params as FlowNodeData['params'], version: now.version };
        const last = now?.version ?? body.removedNodes[n.nodeId]?.version ?? 0;
        return { nodeId: n.nodeId, kind: n.kind, params: n.params as FlowNodeData['params'], version: last + 1 };
      });
      return { type: 'flow', nodes, edges: from.edges.map((e) => ({ edgeId: e.edgeId, from: e.from, to: e.to })) };
    }
    default:
      return assertNever(body, 'artefact body');
  }
}
