import type { BlobStore } from '@lomo/blobs';
import type { EventStore } from '@lomo/eventstore';

/** The stores an export reads from or an import writes to. */
export interface TransferSources {
  events: EventStore;
  /** The platform's BlobStore: media, memory texts, prompts, tool results. */
  blobs: BlobStore;
  /**
   * Where document text (snapshots and patches) lives when it is not `blobs`: on the SQLite event
   * store, a `blobs` table of the event-store file (textBlobsFrom in @lomo/application). Absent:
   * document text is in `blobs` too.
   */
  documentTexts?: BlobStore;
}

/** What the CLI shows as a progress bar; `total` when it is known up front. */
export interface TransferProgress {
  phase: 'events' | 'blobs' | 'verify' | 'write';
  done: number;
  total?: number;
}

export type TransferProgressListener = (progress: TransferProgress) => void;

export interface ExportSummary {
  workspaceId: string;
  dir: string;
  scope: 'workspace' | 'person_view';
  events: number;
  streams: number;
  blobs: number;
  tombstones: number;
  /** Of events.ndjson, as the manifest records it. */
  eventsSha256: string;
}

export interface ImportSummary {
  workspaceId: string;
  streams: number;
  events: number;
  blobs: number;
  tombstones: number;
  /** The OperatorActionRecorded that names the operator. */
  actionId: string;
}
