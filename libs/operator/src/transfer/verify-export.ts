import { createHash, type Hash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { ImportRefusedError } from '../errors';
import { blobReferencesOf } from './blob-references';
import { sha256Of } from './export-line';
import {
  BLOBS_DIR,
  EVENTS_FILE,
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  MANIFEST_FILE,
  exportManifest,
  type ExportManifest,
} from './export-format';
import { parseExportedLine, type LineVerdict } from './imported-event';
import type { TransferProgressListener } from './transfer.types';

/** Events per append when imported: a stream's consecutive lines, cut at this size. */
export const MAX_RUN = 500;

/** What an import refuses, by stable name (the refusal's `details.check`). */
export type ImportCheck =
  | 'manifest_unreadable'
  | 'manifest_format'
  | 'manifest_invalid'
  | 'empty_export'
  | 'events_hash'
  | 'event_line'
  | 'event_contract'
  | 'workspace_mismatch'
  | 'duplicate_event_id'
  | 'revision_gap'
  | 'stream_mismatch'
  | 'blob_missing'
  | 'blob_hash'
  | 'blob_unaccounted'
  | 'stream_exists'
  | 'store_cannot_keep_times';

export function refuse(check: ImportCheck, reason: string, details: Record<string, unknown> = {}): never {
  throw new ImportRefusedError(reason, { check, ...details });
}

/**
 * Consecutive lines of one stream, appended in one call. The import appends runs in file order
 * (the exporting store's global order), so the importing store's order across streams is the
 * same, and checks each run's digest again before writing it: what is written is what was verified.
 */
export interface EventRun {
  streamId: string;
  firstRevision: number;
  count: number;
  sha256: string;
}

export interface VerifiedExport {
  dir: string;
  manifest: ExportManifest;
  runs: EventRun[];
}

/**
 * Reads and checks all of an export before anything is written: the manifest's format, the
 * events file's hash, each line against its event contract, each stream's count, last revision
 * and hash, revisions contiguous from 0, every event of the manifest's workspace, each blob file's
 * hash, and every referenced blob either present or a tombstone. Throws ImportRefusedError on the
 * first problem, naming the check, the file and the line.
 */
export async function verifyExport(dir: string, onProgress?: TransferProgressListener): Promise<VerifiedExport> {
  const manifest = await readManifest(dir);
  const eventsFile = path.join(dir, EVENTS_FILE);
  await checkFileHash(eventsFile, manifest);
  const { runs, referenced } = await checkEvents(eventsFile, manifest, onProgress);
  await checkBlobs(dir, manifest, referenced);
  return { dir, manifest, runs };
}

async function readManifest(dir: string): Promise<ExportManifest> {
  const file = path.join(dir, MANIFEST_FILE);
  let json: unknown;
  try {
    json = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    return refuse('manifest_unreadable', `${MANIFEST_FILE} cannot be read as JSON`, { file, error: String(error) });
  }
  const head = json as { format?: unknown; formatVersion?: unknown };
  if (head?.format !== EXPORT_FORMAT || head.formatVersion !== EXPORT_FORMAT_VERSION)
    refuse(
      'manifest_format',
      `${MANIFEST_FILE} is not a ${EXPORT_FORMAT} version ${EXPORT_FORMAT_VERSION} (found ${String(head?.format)} version ${String(head?.formatVersion)})`,
      { file },
    );
  const parsed = exportManifest.safeParse(json);
  if (!parsed.success)
    return refuse('manifest_invalid', `${MANIFEST_FILE} does not match the export format`, {
      file,
      issues: parsed.error.issues.slice(0, 10).map((i) => `${i.path.join('.')}: ${i.message}`),
    });
  const m = parsed.data;
  if (m.streams.length === 0) refuse('empty_export', `${MANIFEST_FILE} lists no streams: there is nothing to import`);
  const counts = {
    streams: m.streams.length,
    blobs: m.blobs.length,
    tombstones: m.tombstones.length,
    events: m.streams.reduce((sum, s) => sum + s.events, 0),
  };
  for (const key of Object.keys(counts) as Array<keyof typeof counts>)
    if (m.counts[key] !== counts[key])
      refuse('manifest_invalid', `${MANIFEST_FILE} counts ${m.counts[key]} ${key} but lists ${counts[key]}`, {
        file,
        field: `counts.${key}`,
      });
  return m;
}

async function checkFileHash(file: string, manifest: ExportManifest): Promise<void> {
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const chunk of createReadStream(file)) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
  } catch (error) {
    refuse('events_hash', `${EVENTS_FILE} cannot be read`, { file, error: String(error) });
  }
  const sha256 = hash.digest('hex');
  if (sha256 !== manifest.eventsFile.sha256 || bytes !== manifest.eventsFile.bytes)
    refuse('events_hash', `${EVENTS_FILE} does not match the manifest's sha-256 (it was changed or is incomplete)`, {
      file,
      expected: manifest.eventsFile.sha256,
      actual: sha256,
      expectedBytes: manifest.eventsFile.bytes,
      actualBytes: bytes,
    });
}

interface StreamCheck {
  events: number;
  nextRevision: number;
  hash: Hash;
}

async function checkEvents(
  file: string,
  manifest: ExportManifest,
  onProgress: TransferProgressListener | undefined,
): Promise<{ runs: EventRun[]; referenced: Set<string> }> {
  const streams = new Map<string, StreamCheck>();
  const eventIds = new Set<string>();
  const referenced = new Set<string>();
  const runs: EventRun[] = [];
  let run: { streamId: string; firstRevision: number; count: number; hash: Hash } | undefined;
  const closeRun = () => {
    if (run !== undefined) runs.push({ ...run, sha256: run.hash.digest('hex') });
    run = undefined;
  };
  let lineNumber = 0;
  for await (const text of eachLine(file)) {
    lineNumber += 1;
    const at = { file: EVENTS_FILE, line: lineNumber };
    const verdict: LineVerdict = parseExportedLine(text);
    if (!verdict.ok)
      return refuse(verdict.check, `${EVENTS_FILE} line ${lineNumber}: ${verdict.reason}`, {
        ...at,
        ...verdict.details,
      });
    const { streamId, revision, event } = verdict;
    if (event.metadata.workspaceId !== manifest.workspaceId)
      refuse(
        'workspace_mismatch',
        `${EVENTS_FILE} line ${lineNumber}: the event belongs to workspace "${event.metadata.workspaceId}", the export to "${manifest.workspaceId}"`,
        { ...at, streamId },
      );
    if (eventIds.has(event.eventId))
      refuse('duplicate_event_id', `${EVENTS_FILE} line ${lineNumber}: event id ${event.eventId} appears twice`, {
        ...at,
        eventId: event.eventId,
      });
    eventIds.add(event.eventId);
    let stream = streams.get(streamId);
    if (stream === undefined) {
      stream = { events: 0, nextRevision: 0, hash: createHash('sha256') };
      streams.set(streamId, stream);
    }
    if (revision !== stream.nextRevision)
      refuse(
        'revision_gap',
        `${EVENTS_FILE} line ${lineNumber}: ${streamId} revision ${revision} follows ${stream.nextRevision - 1} (revisions must run 0, 1, 2, ...)`,
        { ...at, streamId, revision, expected: stream.nextRevision },
      );
    stream.events += 1;
    stream.nextRevision += 1;
    stream.hash.update(`${text}\n`, 'utf8');
    for (const ref of blobReferencesOf(event.data)) referenced.add(ref.hash);
    if (run === undefined || run.streamId !== streamId || run.count >= MAX_RUN) {
      closeRun();
      run = { streamId, firstRevision: revision, count: 0, hash: createHash('sha256') };
    }
    run.count += 1;
    run.hash.update(`${text}\n`, 'utf8');
    if (lineNumber % 1_000 === 0) onProgress?.({ phase: 'verify', done: lineNumber, total: manifest.counts.events });
  }
  closeRun();
  onProgress?.({ phase: 'verify', done: lineNumber, total: manifest.counts.events });
  checkStreams(streams, manifest);
  return { runs, referenced };
}

function checkStreams(streams: ReadonlyMap<string, StreamCheck>, manifest: ExportManifest): void {
  const listed = new Set(manifest.streams.map((s) => s.streamId));
  for (const streamId of streams.keys())
    if (!listed.has(streamId))
      refuse('stream_mismatch', `${streamId} is in ${EVENTS_FILE} but not in the manifest`, { streamId });
  for (const entry of manifest.streams) {
    const found = streams.get(entry.streamId);
    const actual = {
      events: found?.events ?? 0,
      lastRevision: (found?.nextRevision ?? 0) - 1,
      sha256: found?.hash.digest('hex') ?? '',
    };
    if (actual.events !== entry.events || actual.lastRevision !== entry.lastRevision || actual.sha256 !== entry.sha256)
      refuse(
        'stream_mismatch',
        `${entry.streamId}: the manifest lists ${entry.events} events up to revision ${entry.lastRevision}, ${EVENTS_FILE} holds ${actual.events} up to ${actual.lastRevision}${actual.events === entry.events ? ' with other content' : ''}`,
        { streamId: entry.streamId, expected: entry, actual },
      );
  }
}

async function checkBlobs(dir: string, manifest: ExportManifest, referenced: ReadonlySet<string>): Promise<void> {
  const accounted = new Set<string>();
  for (const entry of manifest.blobs) {
    const file = path.join(BLOBS_DIR, entry.ref.hash);
    if (entry.sha256 !== entry.ref.hash || entry.bytes !== entry.ref.bytes)
      refuse('blob_hash', `the manifest's entry for ${file} does not match its reference`, { file, entry });
    let content: Buffer;
    try {
      content = await fs.readFile(path.join(dir, file));
    } catch (error) {
      return refuse('blob_missing', `${file} is listed in the manifest but cannot be read`, {
        file,
        error: String(error),
      });
    }
    const actual = sha256Of(content);
    if (actual !== entry.sha256 || content.length !== entry.bytes)
      refuse('blob_hash', `${file} does not hash to its name (it was changed or is incomplete)`, {
        file,
        expected: entry.sha256,
        actual,
        expectedBytes: entry.bytes,
        actualBytes: content.length,
      });
    accounted.add(entry.ref.hash);
  }
  for (const tombstone of manifest.tombstones) accounted.add(tombstone.ref.hash);
  const missing = [...referenced].filter((hash) => !accounted.has(hash));
  if (missing.length > 0)
    refuse(
      'blob_unaccounted',
      `${missing.length} blob(s) referenced by events are neither in ${BLOBS_DIR}/ nor tombstones`,
      { hashes: missing.slice(0, 20) },
    );
}

/** The file's lines, read a chunk at a time (a big workspace is never held whole). */
export function eachLine(file: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
}
