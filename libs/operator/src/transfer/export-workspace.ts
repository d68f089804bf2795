import { createHash, type Hash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Caller } from '@lomo/auth';
import { BlobCorruptedError, type BlobRef, type BlobStore } from '@lomo/blobs';
import { systemClock, type Clock, type EventEnvelope } from '@lomo/contracts';
import type { Position } from '@lomo/eventstore';
import { assertMayReadWorkspace, mayShow } from '../access/operator-access';
import { BadOperatorInputError, UnknownTargetError } from '../errors';
import { blobReferencesOf, forgottenBlobsOf } from './blob-references';
import { exportLine, sha256Of } from './export-line';
import {
  BLOBS_DIR,
  EVENTS_FILE,
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  MANIFEST_FILE,
  type BlobStoreName,
  type ExportManifest,
  type ExportTombstone,
  type ExportedBlob,
  type ExportedStream,
} from './export-format';
import type { ExportSummary, TransferProgressListener, TransferSources } from './transfer.types';

/** Events per readAll call: the export holds one page at a time, never the whole log. */
const PAGE = 1_000;

export interface ExportOptions {
  onProgress?: TransferProgressListener;
  clock?: Clock;
}

interface StreamTally {
  events: number;
  lastRevision: number;
  hash: Hash;
}

/**
 * Writes workspace `workspaceId` to `outDir` (see export-format.ts): every event whose metadata
 * names the workspace, in global order (stream ids do not always contain the workspace id, so the
 * whole log is read in pages and filtered by metadata), and the blobs they reference. An operator
 * exports everything; a person exports their own workspace as they may read it (other people's
 * private streams are left out, each one whole, so every exported stream stays contiguous).
 * `outDir` must be absent or empty; the manifest is written last, so a directory without one is
 * an interrupted export.
 */
export async function exportWorkspace(
  sources: TransferSources,
  caller: Caller,
  workspaceId: string,
  outDir: string,
  options: ExportOptions = {},
): Promise<ExportSummary> {
  assertMayReadWorkspace(caller, workspaceId);
  // An integration sees some event types of a stream only: its export would have gaps no import takes.
  if (caller.kind === 'integration')
    throw new BadOperatorInputError('an export needs a person or operator token, not an integration token', {
      kind: caller.kind,
    });
  const clock = options.clock ?? systemClock;
  const progress = options.onProgress ?? (() => undefined);
  await prepareOutDir(outDir);

  const streams = new Map<string, StreamTally>();
  const referenced = new Map<string, BlobRef>();
  const forgotten = new Map<string, string>();
  const fileHash = createHash('sha256');
  let fileBytes = 0;
  let exported = 0;
  const out = await fs.open(path.join(outDir, EVENTS_FILE), 'wx');
  try {
    let after: Position | 'start' = 'start';
    for (;;) {
      const page: EventEnvelope[] = await sources.events.readAll({ fromPosition: after, maxCount: PAGE });
      if (page.length === 0) break;
      after = page[page.length - 1].metadata.globalPosition;
      let chunk = '';
      for (const event of page) {
        if (event.metadata.workspaceId !== workspaceId || !mayShow(caller, event)) continue;
        const line = exportLine(event);
        chunk += line;
        tally(streams, event, line);
        for (const ref of blobReferencesOf(event.data)) if (!referenced.has(ref.hash)) referenced.set(ref.hash, ref);
        for (const { hash, forgettingId } of forgottenBlobsOf(event)) forgotten.set(hash, forgettingId);
        exported += 1;
      }
      if (chunk !== '') {
        const bytes = Buffer.from(chunk, 'utf8');
        fileHash.update(bytes);
        fileBytes += bytes.length;
        await out.write(bytes);
      }
      progress({ phase: 'events', done: exported });
      if (page.length < PAGE) break;
    }
    await out.sync();
  } finally {
    await out.close();
  }

  if (exported === 0) {
    // Nothing of it is in this store (or nothing the caller may read): no export to hand on.
    await fs.rm(path.join(outDir, EVENTS_FILE));
    throw new UnknownTargetError('workspace', workspaceId);
  }
  const { blobs, tombstones } = await copyBlobs(sources, referenced, forgotten, outDir, progress);
  const manifest: ExportManifest = {
    format: EXPORT_FORMAT,
    formatVersion: EXPORT_FORMAT_VERSION,
    workspaceId,
    exportedAt: clock.now().toISOString(),
    exportedBy: {
      tokenId: caller.tokenId,
      tokenName: caller.tokenName,
      userId: caller.userId,
      workspaceId: caller.workspaceId,
      kind: caller.kind,
    },
    scope: caller.kind === 'operator' ? 'workspace' : 'person_view',
    counts: { events: exported, streams: streams.size, blobs: blobs.length, tombstones: tombstones.length },
    eventsFile: { sha256: fileHash.digest('hex'), bytes: fileBytes },
    streams: [...streams].map<ExportedStream>(([streamId, s]) => ({
      streamId,
      events: s.events,
      lastRevision: s.lastRevision,
      sha256: s.hash.digest('hex'),
    })),
    blobs,
    tombstones,
  };
  await fs.writeFile(path.join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
  return {
    workspaceId,
    dir: outDir,
    scope: manifest.scope,
    events: exported,
    streams: streams.size,
    blobs: blobs.length,
    tombstones: tombstones.length,
    eventsSha256: manifest.eventsFile.sha256,
  };
}

function tally(streams: Map<string, StreamTally>, event: EventEnvelope, line: string): void {
  const id = event.metadata.streamId;
  let stream = streams.get(id);
  if (stream === undefined) {
    stream = { events: 0, lastRevision: -1, hash: createHash('sha256') };
    streams.set(id, stream);
  }
  stream.events += 1;
  stream.lastRevision = event.metadata.revision;
  stream.hash.update(line, 'utf8');
}

/** Each referenced blob as a file named by its hash, or a tombstone saying why there is none. */
async function copyBlobs(
  sources: TransferSources,
  referenced: ReadonlyMap<string, BlobRef>,
  forgotten: ReadonlyMap<string, string>,
  outDir: string,
  progress: TransferProgressListener,
): Promise<{ blobs: ExportedBlob[]; tombstones: ExportTombstone[] }> {
  const dir = path.join(outDir, BLOBS_DIR);
  await fs.mkdir(dir);
  const blobs: ExportedBlob[] = [];
  const tombstones: ExportTombstone[] = [];
  let done = 0;
  const stores: Array<[BlobStoreName, BlobStore]> = [['blobs', sources.blobs]];
  if (sources.documentTexts !== undefined) stores.push(['document_texts', sources.documentTexts]);
  for (const ref of referenced.values()) {
    let content: Buffer | undefined;
    let corrupt = false;
    const heldBy: BlobStoreName[] = [];
    for (const [name, store] of stores) {
      const found = await readBlob(store, ref.hash);
      if (found === undefined) continue;
      if (found === 'corrupt' || sha256Of(found) !== ref.hash) corrupt = true;
      else {
        content = found;
        heldBy.push(name);
      }
    }
    const forgettingId = forgotten.get(ref.hash);
    if (content !== undefined) {
      await fs.writeFile(path.join(dir, ref.hash), content, { flag: 'wx' });
      blobs.push({ ref, stores: heldBy, sha256: ref.hash, bytes: content.length });
    } else if (corrupt) {
      tombstones.push({ ref, reason: 'corrupt' });
    } else {
      tombstones.push(
        forgettingId === undefined ? { ref, reason: 'absent' } : { ref, reason: 'forgotten', forgettingId },
      );
    }
    done += 1;
    progress({ phase: 'blobs', done, total: referenced.size });
  }
  return { blobs, tombstones };
}

async function readBlob(store: BlobStore, hash: string): Promise<Buffer | 'corrupt' | undefined> {
  try {
    return await store.get(hash);
  } catch (error) {
    // A store that checks what it hands out (GridFS) refuses bytes that do not match the hash.
    if (error instanceof BlobCorruptedError) return 'corrupt';
    throw error;
  }
}

async function prepareOutDir(outDir: string): Promise<void> {
  await fs.mkdir(outDir, { recursive: true });
  const entries = await fs.readdir(outDir);
  if (entries.length > 0)
    throw new BadOperatorInputError(`the export directory "${outDir}" is not empty`, {
      dir: outDir,
      entries: entries.length,
    });
}
