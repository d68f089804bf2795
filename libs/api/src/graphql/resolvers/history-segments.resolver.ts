import { Inject } from '@nestjs/common';
import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { BLOB_STORE, type BlobStore } from '@lomo/blobs';
import { ContentUnavailable } from '../types/enums';
import { HistorySegment } from '../types/task-context.types';

/**
 * A segment's text lives in the BlobStore (DESIGN.md §4 "Deletable content"), read only when
 * asked for; a purged one reads as null with the reason, the event keeping its hash and range.
 * Who may read it was decided by `Task.historySegments`, the only way to a segment.
 */
@Resolver(() => HistorySegment)
export class HistorySegmentsResolver {
  constructor(@Inject(BLOB_STORE) private readonly blobs: BlobStore) {}

  @ResolveField(() => String, {
    nullable: true,
    description: 'The summary as the model was shown it; null when purged.',
  })
  async text(@Parent() segment: HistorySegment): Promise<string | null> {
    const body = await this.blobs.get(segment.textRef.hash);
    return body === undefined ? null : body.toString('utf8');
  }

  @ResolveField(() => ContentUnavailable, { nullable: true, description: 'Why `text` is null; null when it is there.' })
  async textUnavailable(@Parent() segment: HistorySegment): Promise<string | null> {
    return (await this.blobs.has(segment.textRef.hash)) ? null : ContentUnavailable.PURGED;
  }
}
