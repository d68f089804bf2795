import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Caller } from '@lomo/auth';
import { LomoError, type Clock, type ExpectedRevision, type IdGenerator } from '@lomo/contracts';
import type { EventStore, ImportedEvent } from '@lomo/eventstore';
import { assertOperator } from '../access/operator-access';
import { recordOperatorAction } from '../audit/record-operator-action';
import { ConfirmationRequiredError } from '../errors';
import { sha256Of } from './export-line';
import { BLOBS_DIR, EVENTS_FILE, type ExportManifest } from './export-format';
import { parseExportedLine } from './imported-event';
import type { ImportSummary, TransferProgressListener, TransferSources } from './transfer.types';
import { eachLine, refuse, verifyExport, type EventRun, type VerifiedExport } from './verify-export';

export interface ImportOptions {
  /** The explicit flag (`--confirm`): an import writes to the store. */
  confirm: boolean;
  onProgress?: TransferProgressListener;
  clock: Clock;
  ids: IdGenerator;
  /** Recorded with the action; default the CLI's `import`. */
  via?: { tool: 'cli' | 'inspector'; command: string };
}

/**
 * The import stopped after it had written something (the store failed, or another writer created
 * one of the streams meanwhile): what was written stays, and the recorded action says how far it got.
 */
export class ImportInterruptedError extends LomoError {
  readonly code = 'IMPORT_INTERRUPTED';
  readonly retriable = false;
  constructor(reason: string, details: Record<string, unknown>) {
    super(`import interrupted after writing part of it: ${reason}`, details);
  }
}

/**
 * Imports an export (see export-format.ts) into `sources`, all or nothing as far as the checks go:
 * everything is read and verified first (verify-export.ts), then the import is refused if any of
 * its streams already exists in the target; only then are the blobs written (content-addressed,
 * each address checked) and the events appended stream run by stream run in the exporting store's
 * global order, each stream from `no_stream` and then at its exact revision, each event keeping
 * its time. Ends with `workspace_imported` recorded on the operator's stream.
 */
export async function importWorkspace(
  sources: TransferSources,
  caller: Caller,
  inDir: string,
  options: ImportOptions,
): Promise<ImportSummary> {
  if (!options.confirm) throw new ConfirmationRequiredError('importing a workspace');
  assertOperator(caller, 'importing a workspace');
  const verified = await verifyExport(inDir, options.onProgress);
  const { manifest } = verified;
  const appendImported = sources.events.appendImported?.bind(sources.events);
  if (appendImported === undefined)
    refuse('store_cannot_keep_times', 'the target event store cannot keep the events’ original times');
  await refuseExistingStreams(sources.events, manifest);

  const record = (outcome: 'completed' | 'partial' | 'failed', extra: Record<string, string | number>) =>
    recordOperatorAction(
      sources.events,
      {
        caller,
        action: 'workspace_imported',
        via: options.via ?? { tool: 'cli', command: 'import' },
        outcome,
        targetWorkspaceId: manifest.workspaceId,
        details: {
          streams: manifest.counts.streams,
          events: manifest.counts.events,
          blobs: manifest.counts.blobs,
          tombstones: manifest.counts.tombstones,
          exportedAt: manifest.exportedAt,
          eventsSha256: manifest.eventsFile.sha256,
          ...extra,
        },
      },
      options,
    );

  const written = { blobs: 0, events: 0, streams: new Set<string>() };
  try {
    await writeBlobs(sources, verified, written, options.onProgress);
    await writeEvents(appendImported, verified, written, options.onProgress);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const extra = { blobsWritten: written.blobs, eventsWritten: written.events, streamsWritten: written.streams.size };
    await record(written.events === 0 ? 'failed' : 'partial', { ...extra, error: reason.slice(0, 2_000) }).catch(
      () => undefined,
    );
    throw new ImportInterruptedError(reason, { workspaceId: manifest.workspaceId, ...extra });
  }
  const action = await record('completed', {});
  return {
    workspaceId: manifest.workspaceId,
    streams: manifest.counts.streams,
    events: written.events,
    blobs: written.blobs,
    tombstones: manifest.counts.tombstones,
    actionId: action.actionId,
  };
}

/** Conflicting stream ids: an import never adds to, or interleaves with, a stream already there. */
async function refuseExistingStreams(events: EventStore, manifest: ExportManifest): Promise<void> {
  const existing: string[] = [];
  for (const { streamId } of manifest.streams)
    if ((await events.streamRevision(streamId)) !== 'no_stream') existing.push(streamId);
  if (existing.length > 0)
    refuse(
      'stream_exists',
      `${existing.length} of its ${manifest.streams.length} streams already exist in the target store (first: ${existing[0]})`,
      { streamIds: existing.slice(0, 20), conflicting: existing.length },
    );
}

async function writeBlobs(
  sources: TransferSources,
  { dir, manifest }: VerifiedExport,
  written: { blobs: number },
  onProgress: TransferProgressListener | undefined,
): Promise<void> {
  const storeOf = { blobs: sources.blobs, document_texts: sources.documentTexts ?? sources.blobs };
  for (const { ref, stores } of manifest.blobs) {
    const content = await fs.readFile(path.join(dir, BLOBS_DIR, ref.hash));
    // Checked again as written: the file may have changed since it was verified.
    if (sha256Of(content) !== ref.hash) throw new Error(`${BLOBS_DIR}/${ref.hash} changed after it was verified`);
    for (const name of stores) {
      const stored = await storeOf[name].put(content, ref.contentType);
      if (stored.hash !== ref.hash || stored.bytes !== ref.bytes)
        throw new Error(`the ${name} store stored ${BLOBS_DIR}/${ref.hash} at ${stored.hash} (${stored.bytes} bytes)`);
    }
    written.blobs += 1;
    onProgress?.({ phase: 'blobs', done: written.blobs, total: manifest.blobs.length });
  }
}

type AppendImported = NonNullable<EventStore['appendImported']>;

async function writeEvents(
  appendImported: AppendImported,
  { dir, manifest, runs }: VerifiedExport,
  written: { events: number; streams: Set<string> },
  onProgress: TransferProgressListener | undefined,
): Promise<void> {
  let index = 0;
  let lines: string[] = [];
  const flush = async (run: EventRun) => {
    const text = lines.map((line) => `${line}\n`).join('');
    if (sha256Of(text) !== run.sha256)
      throw new Error(
        `${EVENTS_FILE} changed after it was verified (${run.streamId} from revision ${run.firstRevision})`,
      );
    const events = lines.map(toImportedEvent);
    const expected: ExpectedRevision = run.firstRevision === 0 ? 'no_stream' : run.firstRevision - 1;
    await appendImported(run.streamId, events, expected);
    written.events += events.length;
    written.streams.add(run.streamId);
    onProgress?.({ phase: 'write', done: written.events, total: manifest.counts.events });
    lines = [];
    index += 1;
  };
  for await (const line of eachLine(path.join(dir, EVENTS_FILE))) {
    const run = runs[index];
    if (run === undefined) throw new Error(`${EVENTS_FILE} grew after it was verified`);
    lines.push(line);
    if (lines.length === run.count) await flush(run);
  }
  if (index !== runs.length) throw new Error(`${EVENTS_FILE} shrank after it was verified`);
}

function toImportedEvent(line: string): ImportedEvent {
  const verdict = parseExportedLine(line);
  // The run's digest matched what was verified, so this holds; kept as a guard, not a check.
  if (!verdict.ok) throw new Error(`a verified line no longer parses: ${verdict.reason}`);
  return verdict.event;
}
