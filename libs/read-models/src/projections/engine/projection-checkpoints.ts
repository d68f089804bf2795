import type { Position } from '@lomo/eventstore';
import type { DocumentInput, DocumentStore } from '../../document-store/document-store.port';
import { CHECKPOINTS_COLLECTION } from './physical-names';

export type ProjectionCheckpointDocument = DocumentInput & { position: string; updatedAt: string };

/**
 * Where the store sweep of a physical collection resumes: a hint only. Everything up to it has
 * been applied, but nothing depends on it being exact: revisions in the documents and in
 * `<physical>_streams` make re-reading from an older position a no-op.
 */
export class ProjectionCheckpoints {
  constructor(
    private readonly documents: DocumentStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(physical: string): Promise<Position | undefined> {
    return (await this.documents.get<ProjectionCheckpointDocument>(CHECKPOINTS_COLLECTION, physical))?.position;
  }

  async save(physical: string, position: Position): Promise<void> {
    await this.documents.upsert(CHECKPOINTS_COLLECTION, {
      _id: physical,
      position,
      updatedAt: this.now().toISOString(),
    });
  }

  async remove(physical: string): Promise<void> {
    await this.documents.delete(CHECKPOINTS_COLLECTION, physical);
  }
}
