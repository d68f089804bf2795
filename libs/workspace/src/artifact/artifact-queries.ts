import type { BlobRefData } from './artifact-events';
import type { ArtifactState, FlowBody, TextLink } from './artifact-state';

/**
 * Nodes whose version moved after the writer's base flow version, other than the ones it names:
 * what an applied flow edit tells its writer ("A changed while you edited B").
 */
export function nodesChangedSince(
  body: FlowBody,
  baseVersion: number,
  exclude: ReadonlySet<string>,
): Array<{ nodeId: string; version: number }> {
  const changed: Array<{ nodeId: string; version: number }> = [];
  for (const node of Object.values(body.nodes))
    if (node.changedAt > baseVersion && !exclude.has(node.nodeId))
      changed.push({ nodeId: node.nodeId, version: node.version });
  return changed.sort((a, b) => a.nodeId.localeCompare(b.nodeId));
}

/**
 * How to read a document version: the last snapshot at or before it, then the patches after that
 * snapshot up to the version, oldest first. undefined when the state has no such version.
 */
export interface TextReadPlan {
  version: number;
  hash: string;
  snapshot: BlobRefData;
  patches: Array<{ version: number; patch: BlobRefData; hash: string }>;
}

export function textReadPlan(state: ArtifactState, version?: number): TextReadPlan | undefined {
  if (state.status !== 'live' || state.body.type !== 'document') return undefined;
  let link: TextLink | null = state.body.history;
  while (link !== null && version !== undefined && link.version > version) link = link.prev;
  if (link === null || (version !== undefined && link.version !== version)) return undefined;
  const target = link;
  const patches: TextReadPlan['patches'] = [];
  while (link !== null && link.text.snapshot === undefined) {
    if (link.patch === null) return undefined;
    patches.push({ version: link.version, patch: link.patch, hash: link.text.hash });
    link = link.prev;
  }
  if (link === null || link.text.snapshot === undefined) return undefined;
  return { version: target.version, hash: target.text.hash, snapshot: link.text.snapshot, patches: patches.reverse() };
}
