import { createHash, randomUUID } from 'node:crypto';
import { promises as fs, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { projectorProjections } from '@lomo/application';
import type { Caller } from '@lomo/auth';
import Database from 'better-sqlite3';
import { FilesystemBlobStore, SqliteBlobStore, type BlobStore } from '@lomo/blobs';
import { streams, systemClock, type EventEnvelope } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { makeTempDir } from '@lomo/eventstore/testing';
import {
  ConfirmationRequiredError,
  EVENTS_FILE,
  exportWorkspace,
  ImportInterruptedError,
  ImportRefusedError,
  importWorkspace,
  MANIFEST_FILE,
  OperatorRoleRequiredError,
  UnknownTargetError,
  WorkspaceForbiddenError,
  type ExportManifest,
  type TransferProgress,
} from '@lomo/operator';
import { cleanRebuild, type Snapshot } from '../projections/support/projection-harness';
import { runExportedWorkspaceScenario, type ScenarioWorkspace } from './support/exported-workspace-scenario';

// `lomo export` / `lomo import` as the library behind them does it: a workspace made by the
// standalone app through its API (tasks, turns, an agent-written document, a memory formed and
// forgotten, a second person), exported, imported into an empty store, and the read models
// rebuilt there equal to those rebuilt from the original log, collection by collection. A corrupt,
// inconsistent or conflicting export, a missing --confirm, a person's token: refused, saying
// why, and the target store unchanged (its events and its blob files).

const operator: Caller = {
  tokenId: 'tok-ops-1',
  tokenName: 'ops laptop',
  workspaceId: 'ops',
  userId: 'sam',
  kind: 'operator',
};
const deps = { clock: systemClock, ids: { uuid: () => randomUUID() } };
const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

/** The stores of an embedded deployment, as the apps open them on a data directory. */
interface Stores {
  events: SqliteEventStore;
  /** The platform's blobs: files under `blobs/`. */
  blobs: FilesystemBlobStore;
  /** Document text: the `blobs` table of the event-store file (textBlobsFrom in @lomo/application). */
  documentTexts: SqliteBlobStore;
  eventsFile: string;
  blobDir: string;
}

const openStores = (dataDir: string): Stores => ({
  events: new SqliteEventStore({ filename: path.join(dataDir, 'events.sqlite') }),
  blobs: new FilesystemBlobStore(path.join(dataDir, 'blobs')),
  documentTexts: new SqliteBlobStore({ filename: path.join(dataDir, 'events.sqlite'), synchronous: 'NORMAL' }),
  eventsFile: path.join(dataDir, 'events.sqlite'),
  blobDir: path.join(dataDir, 'blobs'),
});

const closeStores = async (stores: Stores) => {
  await stores.events.close();
  stores.documentTexts.close();
};

type Target = Stores & { dispose(): Promise<void> };

function openTarget(): Target {
  const temp = makeTempDir('import-target');
  const stores = openStores(temp.dir);
  return {
    ...stores,
    dispose: async () => {
      await closeStores(stores);
      temp.remove();
    },
  };
}

/** A blob's bytes from each store the manifest says holds it. */
async function blobIn(stores: Stores, names: readonly string[], hash: string): Promise<Array<Buffer | undefined>> {
  const byName: Record<string, BlobStore> = { blobs: stores.blobs, document_texts: stores.documentTexts };
  return Promise.all(names.map((name) => byName[name].get(hash)));
}

function filesUnder(dir: string, prefix = ''): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesUnder(full, `${prefix}${entry}/`) : [`${prefix}${entry}`];
  });
}

/** All the target holds: every stored event as read back, the head, and its blob files with their bytes. */
async function stateOf(target: Target) {
  const events = await target.events.readAll();
  const blobs = filesUnder(target.blobDir)
    .sort()
    .map((file) => `${file}:${sha256(readFileSync(path.join(target.blobDir, file)))}`);
  const db = new Database(target.eventsFile, { readonly: true });
  try {
    const texts = db.prepare('SELECT hash, bytes, content_type FROM blobs ORDER BY hash').all();
    return {
      events: events.length,
      head: await target.events.headPosition(),
      sha256: sha256(JSON.stringify(events)),
      blobs,
      documentTexts: sha256(JSON.stringify(texts)),
      documentTextCount: texts.length,
    };
  } finally {
    db.close();
  }
}

/**
 * The events as both stores give them, without the global position: an opaque per-store order
 * key that the importing store assigns anew (its `1, 2, 3…` count from its own first event). The
 * order itself is compared: both lists are in each store's global order.
 */
const withoutPosition = (events: readonly EventEnvelope[]) =>
  events.map(({ type, data, metadata: { globalPosition: _position, ...metadata } }) => ({ type, data, metadata }));

async function copyExport(from: string): Promise<string> {
  const to = makeTempDir('export-copy').dir;
  await fs.cp(from, to, { recursive: true });
  return to;
}

const readManifest = async (dir: string) =>
  JSON.parse(await fs.readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as ExportManifest;

/**
 * Edits events.ndjson and brings the manifest's hashes and counts in line, so only the deeper
 * checks (contract, revisions) can catch the edit.
 */
async function rewriteEvents(dir: string, edit: (lines: string[]) => string[]): Promise<void> {
  const file = path.join(dir, EVENTS_FILE);
  const lines = edit((await fs.readFile(file, 'utf8')).split('\n').filter((line) => line !== ''));
  const text = lines.map((line) => `${line}\n`).join('');
  await fs.writeFile(file, text);
  const manifest = await readManifest(dir);
  const byStream = new Map<string, string[]>();
  for (const line of lines) {
    const id = (JSON.parse(line) as { metadata: { streamId: string } }).metadata.streamId;
    byStream.set(id, [...(byStream.get(id) ?? []), line]);
  }
  manifest.streams = manifest.streams.map((entry) => {
    const own = byStream.get(entry.streamId) ?? [];
    const last = JSON.parse(own[own.length - 1]) as { metadata: { revision: number } };
    return {
      ...entry,
      events: own.length,
      lastRevision: last.metadata.revision,
      sha256: sha256(own.map((line) => `${line}\n`).join('')),
    };
  });
  manifest.counts.events = lines.length;
  manifest.eventsFile = { sha256: sha256(text), bytes: Buffer.byteLength(text) };
  await fs.writeFile(path.join(dir, MANIFEST_FILE), JSON.stringify(manifest));
}

describe('lomo export / import: a workspace moved between stores, all or nothing', () => {
  let scenario: ScenarioWorkspace;
  let source: Stores;
  let exportDir: string;
  let manifest: ExportManifest;
  let imported: Target;
  const cleanup: string[] = [];

  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportRefusedError);
    return error as ImportRefusedError;
  };

  beforeAll(async () => {
    scenario = await runExportedWorkspaceScenario();
    source = openStores(scenario.dataDir);
    exportDir = makeTempDir('export').dir;
    cleanup.push(exportDir);
    await exportWorkspace(source, operator, scenario.workspaceId, exportDir, { clock: systemClock });
    manifest = await readManifest(exportDir);
    imported = openTarget();
  }, 300_000);

  afterAll(async () => {
    if (source !== undefined) await closeStores(source);
    await imported?.dispose();
    if (scenario !== undefined) rmSync(scenario.dataDir, { recursive: true, force: true });
    for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
  });

  it('exports every event of the workspace in global order, the blobs they reference, and the forgotten ones as tombstones', async () => {
    const all = await source.events.readAll();
    // The app ran one workspace only, so the rebuilt read models below cover this workspace alone.
    expect(new Set(all.map((e) => e.metadata.workspaceId))).toEqual(new Set([scenario.workspaceId]));
    const lines = (await fs.readFile(path.join(exportDir, EVENTS_FILE), 'utf8')).split('\n').filter(Boolean);
    expect(lines.map((line) => (JSON.parse(line) as { metadata: { eventId: string } }).metadata.eventId)).toEqual(
      all.map((e) => e.metadata.eventId),
    );
    expect(manifest).toMatchObject({
      workspaceId: scenario.workspaceId,
      scope: 'workspace',
      exportedBy: { tokenId: operator.tokenId, tokenName: operator.tokenName, kind: 'operator' },
      counts: { events: all.length, streams: new Set(all.map((e) => e.metadata.streamId)).size },
    });
    const categories = new Set(manifest.streams.map((s) => s.streamId.split('-')[0]));
    for (const category of ['main', 'task', 'turn', 'artifact', 'memory']) expect(categories).toContain(category);

    expect(manifest.blobs.length).toBeGreaterThan(0);
    for (const blob of manifest.blobs) {
      const file = await fs.readFile(path.join(exportDir, 'blobs', blob.ref.hash));
      expect(sha256(file)).toBe(blob.ref.hash);
      expect(await blobIn(source, blob.stores, blob.ref.hash)).toEqual(blob.stores.map(() => file));
    }
    // The forgetting deleted the memory's texts: they travel as tombstones naming it, not as files.
    const forgotten = all.find((e) => e.type === 'ForgettingCompleted')!.data as {
      forgettingId: string;
      report: { blobsDeleted: string[] };
    };
    expect(manifest.tombstones.length).toBeGreaterThan(0);
    for (const tombstone of manifest.tombstones) {
      expect(tombstone).toMatchObject({ reason: 'forgotten', forgettingId: forgotten.forgettingId });
      expect(forgotten.report.blobsDeleted).toContain(tombstone.ref.hash);
      expect(await source.blobs.has(tombstone.ref.hash)).toBe(false);
      expect(await source.documentTexts.has(tombstone.ref.hash)).toBe(false);
      expect(filesUnder(path.join(exportDir, 'blobs'))).not.toContain(tombstone.ref.hash);
    }
  });

  it('a person exports what they may read of their own workspace: not the other person’s private streams; another workspace is refused', async () => {
    const person: Caller = {
      tokenId: 'tok-person',
      tokenName: 'dev',
      workspaceId: scenario.workspaceId,
      userId: scenario.userId,
      kind: 'person',
    };
    const dir = makeTempDir('person-export').dir;
    cleanup.push(dir);
    await exportWorkspace(source, person, scenario.workspaceId, dir);
    const own = await readManifest(dir);
    const bobMain = streams.main(scenario.workspaceId, scenario.otherUserId);
    expect(manifest.streams.map((s) => s.streamId)).toContain(bobMain);
    expect(own.scope).toBe('person_view');
    const ids = own.streams.map((s) => s.streamId);
    expect(ids).toContain(streams.main(scenario.workspaceId, scenario.userId));
    expect(ids.filter((id) => id.includes(`${scenario.workspaceId}.${scenario.otherUserId}`))).toEqual([]);
    // Everything else is the same, stream for stream.
    const shared = manifest.streams.filter((s) => !s.streamId.includes(`.${scenario.otherUserId}`));
    expect(own.streams).toEqual(shared);

    const refused = makeTempDir('refused-export').dir;
    cleanup.push(refused);
    await expect(
      exportWorkspace(source, { ...person, workspaceId: 'elsewhere' }, scenario.workspaceId, refused),
    ).rejects.toBeInstanceOf(WorkspaceForbiddenError);
    expect(filesUnder(refused)).toEqual([]);
  });

  it('an export of a workspace the store holds nothing of is refused, and leaves its directory empty', async () => {
    const dir = makeTempDir('empty-export').dir;
    cleanup.push(dir);
    await expect(exportWorkspace(source, operator, 'nobody_here', dir)).rejects.toBeInstanceOf(UnknownTargetError);
    expect(filesUnder(dir)).toEqual([]);
  });

  it('import into an empty store: the same events with their times, the blobs, the action recorded; the rebuilt read models equal the originals', async () => {
    const progress: TransferProgress[] = [];
    const summary = await importWorkspace(imported, operator, exportDir, {
      confirm: true,
      ...deps,
      onProgress: (p) => progress.push(p),
    });
    expect(summary).toMatchObject({
      workspaceId: scenario.workspaceId,
      events: manifest.counts.events,
      streams: manifest.counts.streams,
      blobs: manifest.counts.blobs,
      tombstones: manifest.counts.tombstones,
    });
    expect(new Set(progress.map((p) => p.phase))).toEqual(new Set(['verify', 'blobs', 'write']));

    const original = (await source.events.readAll()).filter((e) => e.metadata.workspaceId === scenario.workspaceId);
    const copy = (await imported.events.readAll()).filter((e) => e.metadata.workspaceId === scenario.workspaceId);
    expect(withoutPosition(copy)).toEqual(withoutPosition(original));
    for (const blob of manifest.blobs)
      expect(await blobIn(imported, blob.stores, blob.ref.hash)).toEqual(
        await blobIn(source, blob.stores, blob.ref.hash),
      );
    // The document's text went back to the document-text store, where the workspace reads it.
    expect(manifest.blobs.some((b) => b.stores.includes('document_texts'))).toBe(true);
    for (const tombstone of manifest.tombstones) {
      expect(await imported.blobs.has(tombstone.ref.hash)).toBe(false);
      expect(await imported.documentTexts.has(tombstone.ref.hash)).toBe(false);
    }

    // The one event the import adds: the fact naming the operator, on the operator's own stream.
    const recorded = await imported.events.readStream(streams.operator(operator.workspaceId));
    expect(recorded.map((e) => [e.type, e.metadata.workspaceId])).toEqual([['OperatorActionRecorded', 'ops']]);
    expect(recorded[0].data).toMatchObject({
      actionId: summary.actionId,
      action: 'workspace_imported',
      operator: { userId: 'sam', tokenId: operator.tokenId, tokenName: operator.tokenName },
      targetWorkspaceId: scenario.workspaceId,
      outcome: 'completed',
      details: {
        streams: manifest.counts.streams,
        events: manifest.counts.events,
        blobs: manifest.counts.blobs,
        tombstones: manifest.counts.tombstones,
      },
    });

    const [before, after] = await Promise.all([
      cleanRebuild(source.events, projectorProjections),
      cleanRebuild(imported.events, projectorProjections),
    ]);
    await Promise.all([before.documents.close(), after.documents.close()]);
    const rebuiltFromOriginal: Snapshot = before.snapshot;
    const rebuiltFromImport: Snapshot = after.snapshot;
    expect(Object.keys(rebuiltFromImport)).toEqual(Object.keys(rebuiltFromOriginal));
    const filled = Object.keys(rebuiltFromOriginal).filter((name) => Object.keys(rebuiltFromOriginal[name]).length > 0);
    expect(filled.length).toBeGreaterThanOrEqual(5);
    for (const name of Object.keys(rebuiltFromOriginal)) {
      expect({ collection: name, documents: rebuiltFromImport[name] }).toEqual({
        collection: name,
        documents: rebuiltFromOriginal[name],
      });
    }
  }, 120_000);

  it('exporting the imported workspace again gives the same file: the round trip is exact, and the operator stream of another workspace stays out', async () => {
    const dir = makeTempDir('re-export').dir;
    cleanup.push(dir);
    await exportWorkspace(imported, operator, scenario.workspaceId, dir);
    expect(await fs.readFile(path.join(dir, EVENTS_FILE))).toEqual(
      await fs.readFile(path.join(exportDir, EVENTS_FILE)),
    );
    const again = await readManifest(dir);
    expect({ ...again, exportedAt: undefined }).toEqual({ ...manifest, exportedAt: undefined });
  });

  describe('refusals change nothing and say why', () => {
    let empty: Target;
    beforeEach(() => {
      empty = openTarget();
    });
    afterEach(async () => {
      await empty.dispose();
    });

    const refusedUnchanged = async (dir: string, check: string, reason: RegExp) => {
      const before = await stateOf(empty);
      const error = await refusal(importWorkspace(empty, operator, dir, { confirm: true, ...deps }));
      expect(error.details.check).toBe(check);
      expect(error.message).toMatch(reason);
      expect(await stateOf(empty)).toEqual(before);
      expect(before).toMatchObject({ events: 0, blobs: [], documentTextCount: 0 });
      return error;
    };

    it('a flipped byte in events.ndjson: the file no longer matches its hash', async () => {
      const dir = await copyExport(exportDir);
      cleanup.push(dir);
      const file = path.join(dir, EVENTS_FILE);
      const bytes = await fs.readFile(file);
      bytes[Math.floor(bytes.length / 2)] ^= 0x01;
      await fs.writeFile(file, bytes);
      const error = await refusedUnchanged(dir, 'events_hash', /events\.ndjson does not match the manifest's sha-256/);
      expect(error.details).toMatchObject({ expected: manifest.eventsFile.sha256 });
    });

    it('a blob file whose content does not hash to its name', async () => {
      const dir = await copyExport(exportDir);
      cleanup.push(dir);
      const victim = manifest.blobs[0].ref.hash;
      const file = path.join(dir, 'blobs', victim);
      const content = await fs.readFile(file);
      await fs.writeFile(file, Buffer.concat([content, Buffer.from(' tampered')]));
      const error = await refusedUnchanged(dir, 'blob_hash', new RegExp(`blobs/${victim} does not hash to its name`));
      expect(error.details).toMatchObject({ file: `blobs/${victim}`, expected: victim });
    });

    it('a blob file that is missing', async () => {
      const dir = await copyExport(exportDir);
      cleanup.push(dir);
      await fs.rm(path.join(dir, 'blobs', manifest.blobs[0].ref.hash));
      await refusedUnchanged(dir, 'blob_missing', /is listed in the manifest but cannot be read/);
    });

    it('a line that fails its event contract, with every hash made to match', async () => {
      const dir = await copyExport(exportDir);
      cleanup.push(dir);
      let edited = -1;
      await rewriteEvents(dir, (lines) =>
        lines.map((line, i) => {
          const event = JSON.parse(line) as { type: string; data: Record<string, unknown> };
          if (edited !== -1 || event.type !== 'TaskCreated') return line;
          edited = i + 1;
          return JSON.stringify({ ...event, data: { ...event.data, smuggled: true } });
        }),
      );
      expect(edited).toBeGreaterThan(0);
      const error = await refusedUnchanged(
        dir,
        'event_contract',
        new RegExp(`line ${edited}: Event TaskCreated does not match its contract`),
      );
      expect(error.details).toMatchObject({ line: edited, type: 'TaskCreated', code: 'INVALID_EVENT' });
    });

    it('a stream with a revision missing, with every hash and count made to match', async () => {
      const dir = await copyExport(exportDir);
      cleanup.push(dir);
      const longest = [...manifest.streams].sort((a, b) => b.events - a.events)[0];
      expect(longest.events).toBeGreaterThanOrEqual(3);
      await rewriteEvents(dir, (lines) =>
        lines.filter((line) => {
          const { metadata } = JSON.parse(line) as { metadata: { streamId: string; revision: number } };
          return !(metadata.streamId === longest.streamId && metadata.revision === 1);
        }),
      );
      const error = await refusedUnchanged(dir, 'revision_gap', new RegExp(`${longest.streamId} revision 2 follows 0`));
      expect(error.details).toMatchObject({ streamId: longest.streamId, revision: 2, expected: 1 });
    });

    it('a manifest of another format', async () => {
      const dir = await copyExport(exportDir);
      cleanup.push(dir);
      await fs.writeFile(path.join(dir, MANIFEST_FILE), JSON.stringify({ ...manifest, formatVersion: 2 }));
      await refusedUnchanged(dir, 'manifest_format', /is not a lomo\.workspace-export version 1/);
    });

    it('one of its streams already in the target: refused before any blob or event is written', async () => {
      const taken = manifest.streams.find((s) => s.streamId.startsWith('task-'))!.streamId;
      const [first] = await source.events.readStream(taken, { maxCount: 1 });
      const { correlationId, causationId, workspaceId, actor } = first.metadata;
      await empty.events.append(
        taken,
        [
          {
            eventId: first.metadata.eventId,
            type: first.type,
            data: first.data,
            metadata: { correlationId, causationId, workspaceId, actor },
          },
        ],
        'no_stream',
      );
      const before = await stateOf(empty);
      const error = await refusal(importWorkspace(empty, operator, exportDir, { confirm: true, ...deps }));
      expect(error.details).toMatchObject({ check: 'stream_exists', streamIds: [taken], conflicting: 1 });
      expect(error.message).toMatch(/1 of its \d+ streams already exist in the target store/);
      expect(await stateOf(empty)).toEqual(before);
      expect(before).toMatchObject({ events: 1, blobs: [], documentTextCount: 0 });
    });
  });

  it('a store that fails in the middle: what was written stays, the error and the recorded action say how far it got', async () => {
    const target = openTarget();
    try {
      let calls = 0;
      // The same store, whose third imported append fails as an unreachable store would.
      const failing = Object.create(target.events) as SqliteEventStore;
      failing.appendImported = (...args) => {
        calls += 1;
        if (calls === 3) return Promise.reject(new Error('disk unplugged'));
        return target.events.appendImported(...args);
      };
      const error = await importWorkspace({ ...target, events: failing }, operator, exportDir, {
        confirm: true,
        ...deps,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ImportInterruptedError);
      const written = (await target.events.readAll()).filter((e) => e.metadata.workspaceId === scenario.workspaceId);
      expect((error as ImportInterruptedError).details).toMatchObject({
        eventsWritten: written.length,
        streamsWritten: new Set(written.map((e) => e.metadata.streamId)).size,
        blobsWritten: manifest.counts.blobs,
      });
      expect(written.length).toBeGreaterThan(0);
      const [recorded] = await target.events.readStream(streams.operator(operator.workspaceId));
      expect(recorded.data).toMatchObject({
        action: 'workspace_imported',
        outcome: 'partial',
        details: { eventsWritten: written.length, error: 'disk unplugged' },
      });
    } finally {
      await target.dispose();
    }
  });

  it('importing the same export twice: every stream conflicts, nothing changes', async () => {
    const before = await stateOf(imported);
    const error = await refusal(importWorkspace(imported, operator, exportDir, { confirm: true, ...deps }));
    expect(error.details).toMatchObject({ check: 'stream_exists', conflicting: manifest.counts.streams });
    expect(await stateOf(imported)).toEqual(before);
  });

  it('without --confirm, or with a person’s token, an import is refused before it reads anything', async () => {
    const target = openTarget();
    try {
      const before = await stateOf(target);
      await expect(importWorkspace(target, operator, exportDir, { confirm: false, ...deps })).rejects.toBeInstanceOf(
        ConfirmationRequiredError,
      );
      const person: Caller = { ...operator, kind: 'person', workspaceId: scenario.workspaceId };
      await expect(importWorkspace(target, person, exportDir, { confirm: true, ...deps })).rejects.toBeInstanceOf(
        OperatorRoleRequiredError,
      );
      // Not even a missing directory is looked at first.
      await expect(
        importWorkspace(target, operator, path.join(exportDir, 'nowhere'), { confirm: false, ...deps }),
      ).rejects.toBeInstanceOf(ConfirmationRequiredError);
      expect(await stateOf(target)).toEqual(before);
    } finally {
      await target.dispose();
    }
  });
});
