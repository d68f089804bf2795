import { ProjectionAliases, ProjectionCheckpoints, type ProjectionAliasDocument } from '@lomo/read-models';
import { positionsBehind } from '../../positions';
import type { ProjectionSources } from './projection-sources';

export interface ProjectionStatusRow {
  name: string;
  /** The version this code runs. */
  version: number;
  /** The version readers use (the alias's); null until a first build switched. */
  aliasVersion: number | null;
  /** The physical collection readers use: `<name>_v<version>`, or `..._r<n>` after an operator's rebuild. */
  aliasCollection: string | null;
  switchedAt: string | null;
  /** A rebuild in progress (or an abandoned one whose lease ran out). */
  rebuildLease: ProjectionAliasDocument['rebuild'];
  /** Where the projector's store sweep of the alias's collection got to (its checkpoint). */
  appliedPosition: string | null;
  headPosition: string | null;
  /** Positions from the checkpoint to the head (events of every category); null on opaque positions. */
  lagEvents: number | null;
  documents: number | null;
}

/** One row per projection the projector runs: what readers use, how far it is, how big. */
export async function projectionsStatus(
  sources: Pick<ProjectionSources, 'events' | 'documents' | 'projections'>,
): Promise<ProjectionStatusRow[]> {
  const { events, documents, projections } = sources;
  const aliases = new ProjectionAliases(documents, { cacheTtlMs: 0 });
  const checkpoints = new ProjectionCheckpoints(documents);
  const head = await events.headPosition();
  const rows: ProjectionStatusRow[] = [];
  for (const definition of projections) {
    const alias = await aliases.read(definition.name);
    const collection = alias?.collection ?? null;
    const applied = collection === null ? undefined : await checkpoints.get(collection);
    rows.push({
      name: definition.name,
      version: definition.version,
      aliasVersion: alias?.version ?? null,
      aliasCollection: collection,
      switchedAt: alias?.switchedAt ?? null,
      rebuildLease: alias?.rebuild ?? null,
      appliedPosition: applied ?? null,
      headPosition: head ?? null,
      lagEvents: collection === null ? null : positionsBehind(applied, head),
      documents: collection === null ? null : await documents.count(collection),
    });
  }
  return rows;
}
