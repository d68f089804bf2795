import { ArtifactRefusedError, type ArtifactRefusalCode } from '../artifact-errors';
import type { ArtifactBody, ArtifactState, ExistingArtifact, LiveArtifact } from './artifact-state';

export function refuse(
  state: ArtifactState,
  code: ArtifactRefusalCode,
  message: string,
  details: Omit<ArtifactRefusedError['details'], 'artifactId'> = {},
): never {
  const artifactId = state.status === 'none' ? '' : state.artifactId;
  throw new ArtifactRefusedError(code, message, { artifactId, ...details });
}

export function existing(state: ArtifactState): ExistingArtifact {
  if (state.status === 'none') return refuse(state, 'ARTIFACT_NOT_FOUND', 'The artefact does not exist');
  return state;
}

/** Deleted artefacts refuse every write. */
export function live(state: ArtifactState): LiveArtifact {
  const artifact = existing(state);
  if (artifact.status === 'deleted')
    return refuse(artifact, 'ARTIFACT_DELETED', `Artefact ${artifact.artifactId} was deleted`, {
      currentVersion: artifact.version,
    });
  return artifact;
}

export function liveOfType<T extends ArtifactBody['type']>(
  state: ArtifactState,
  type: T,
  doing: string,
): LiveArtifact & { body: Extract<ArtifactBody, { type: T }> } {
  const artifact = live(state);
  if (artifact.body.type !== type)
    return refuse(artifact, 'ARTIFACT_KIND_MISMATCH', `Cannot ${doing} a ${artifact.kind} artefact`, {
      currentVersion: artifact.version,
    });
  return artifact as LiveArtifact & { body: Extract<ArtifactBody, { type: T }> };
}

export function invalid(state: ArtifactState, message: string): never {
  return refuse(state, 'ARTIFACT_INVALID_INPUT', message);
}

/** A base version the artefact never had (0, negative, or ahead of it) is bad input, not a conflict. */
export function knownBase(artifact: LiveArtifact, baseVersion: number): void {
  if (!Number.isInteger(baseVersion) || baseVersion < 1 || baseVersion > artifact.version)
    invalid(
      artifact,
      `Base version ${baseVersion} is not a version of artefact ${artifact.artifactId} (1..${artifact.version})`,
    );
}

/** Whole writes (rewrite, replace, restore) need the current version as their base. */
export function atCurrentVersion(artifact: LiveArtifact, baseVersion: number): void {
  knownBase(artifact, baseVersion);
  if (baseVersion !== artifact.version)
    refuse(
      artifact,
      'ARTIFACT_VERSION_CONFLICT',
      `Artefact ${artifact.artifactId} moved on from version ${baseVersion} to ${artifact.version}: re-read and resubmit`,
      { currentVersion: artifact.version },
    );
}

/** Structural equality of plain JSON values (authors, params); key order does not matter. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson((a as never)[k], (b as never)[k]));
}
