/**
 * Rebuild drill (`npm run drill:rebuild`; DRILL_EVENTS to change the log size, default 1 000 000):
 * `lomo projections rebuild` on a big log shows its progress and ends with read models equal to
 * the live ones.
 * 1. A fresh data directory; the projection bench's generated log written into its SQLite event
 *    store with plain inserts (libs/read-models/src/testing/generated-log.ts).
 * 2. The live read models: a ProjectionRunner as the projector configures it (every projection it
 *    runs, rebuild threads on SQLite files), started, ready and swept to the head, then stopped.
 *    Every document of every projection (and their applied-streams collections) is read and
 *    hashed: canonical JSON without `_version`, the store's write counter, which counts writes and
 *    not content (a live collection is written once per change, a rebuilt one once per document).
 * 3. The real CLI as a child process: `node dist/apps/cli/main.js projections rebuild --confirm
 *    --json --token <operator token>` with LOMO_DATA_DIR set (its progress bar on stderr passes
 *    through). The token is issued on the data directory's auth store as `lomo tokens create`
 *    does. `--in-process` calls the library function instead (rebuildProjections of
 *    @lomo/operator), for when the CLI is not built.
 * 4. Every alias now names a fresh collection; its documents are compared with the hashes of
 *    step 2. stdout ends with one JSON line {events, rebuild_seconds, wall_seconds,
 *    rate_per_second, equal}; the exit code is 1 when anything differs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectorProjections, rebuildExecutorOf } from '@lomo/application';
import { ApiTokens, authSettings, openApiTokenStore, type Caller } from '@lomo/auth';
import { systemClock } from '@lomo/contracts';
import { loadConfig } from '@lomo/config';
import { SqliteEventStore } from '@lomo/eventstore';
import { makeTempDir } from '@lomo/eventstore/testing';
import { silentLogger } from '@lomo/observability';
import { rebuildProjections, type RebuildSummary } from '@lomo/operator';
import {
  ProjectionAliases,
  ProjectionRunner,
  projectorSettings,
  SqliteDocumentStore,
  streamsCollection,
  type DocumentStore,
} from '@lomo/read-models';
import { diffCollections, readCollection, writeGeneratedLog } from '@lomo/read-models/testing';

const EVENTS = Number(process.env.DRILL_EVENTS ?? 1_000_000);
const IN_PROCESS = process.argv.includes('--in-process');
const ROOT = join(__dirname, '..', '..');
/** DRILL_CLI: another entry of the CLI (a .ts runs through scripts/register.cjs); default the build's. */
const CLI = process.env.DRILL_CLI ?? join(ROOT, 'dist', 'apps', 'cli', 'main.js');
const cliCommand = (args: string[]) =>
  CLI.endsWith('.ts') ? ['-r', join(ROOT, 'scripts', 'register.cjs'), CLI, ...args] : [CLI, ...args];

const note = (line: string) => process.stderr.write(`${line}\n`);

type Hashes = Map<string, Map<string, string>>;

/** Every projection's documents and applied streams where its alias points, hashed. */
async function hashAll(documents: DocumentStore): Promise<{ hashes: Hashes; collections: string[] }> {
  const aliases = new ProjectionAliases(documents, { cacheTtlMs: 0 });
  const hashes: Hashes = new Map();
  const collections: string[] = [];
  for (const p of projectorProjections) {
    const collection = await aliases.collectionOf(p.name);
    if (collection === undefined) throw new Error(`${p.name} has no live collection`);
    collections.push(collection);
    hashes.set(p.name, await readCollection(documents, collection, { digest: true }));
    hashes.set(`${p.name} streams`, await readCollection(documents, streamsCollection(collection), { digest: true }));
  }
  return { hashes, collections };
}

async function operatorToken(config: ReturnType<typeof loadConfig>): Promise<string> {
  const store = await openApiTokenStore(authSettings(config), silentLogger, { cache: false });
  try {
    const issued = await new ApiTokens(store).issue({
      workspaceId: 'ops',
      userId: 'drill',
      name: 'rebuild drill',
      kind: 'operator',
    });
    return issued.secret;
  } finally {
    await store.close();
  }
}

/** The real CLI, its progress on our stderr; resolves with its JSON summary. */
async function rebuildWithCli(dataDir: string, token: string): Promise<RebuildSummary> {
  if (!existsSync(CLI)) {
    note('dist/apps/cli/main.js is missing: building (node scripts/build.cjs) ...');
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.cjs')], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the build failed');
  }
  const child = spawn(
    process.execPath,
    cliCommand(['projections', 'rebuild', '--confirm', '--json', '--token', token]),
    {
      cwd: ROOT,
      env: { ...process.env, LOMO_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`lomo projections rebuild exited with ${code}: ${stdout.trim()}`);
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as RebuildSummary;
}

async function rebuildInProcess(config: ReturnType<typeof loadConfig>): Promise<RebuildSummary> {
  const events = new SqliteEventStore({ filename: config.LOMO_SQLITE_PATH });
  const documents = new SqliteDocumentStore({ filename: config.LOMO_READ_MODELS_PATH });
  const caller: Caller = {
    tokenId: 'drill',
    tokenName: 'rebuild drill',
    workspaceId: 'ops',
    userId: 'drill',
    kind: 'operator',
  };
  let shownAt = 0;
  try {
    return await rebuildProjections({ events, documents, projections: projectorProjections }, caller, {
      confirm: true,
      clock: systemClock,
      ids: { uuid: () => randomUUID() },
      logger: silentLogger,
      onProgress: (p) => {
        if (Date.now() - shownAt < 2_000) return;
        shownAt = Date.now();
        const done = p.total !== undefined && p.position !== undefined ? `${p.position}/${p.total}` : `${p.events}`;
        note(`  rebuild ${done} | ${p.ratePerSecond}/s`);
      },
    });
  } finally {
    await documents.close();
    await events.close();
  }
}

async function main(): Promise<boolean> {
  const temp = makeTempDir('drill-rebuild');
  try {
    const config = loadConfig({ ...process.env, LOMO_DATA_DIR: temp.dir });
    const events = new SqliteEventStore({ filename: config.LOMO_SQLITE_PATH });
    note(`generating ${EVENTS} events (plain inserts) into ${config.LOMO_SQLITE_PATH} ...`);
    const written = writeGeneratedLog(config.LOMO_SQLITE_PATH, EVENTS, {
      onProgress: (count) => count % 250_000 === 0 && note(`  generated ${count} events`),
    });
    note(`generated ${written.events} events, ${written.tasks} tasks in ${(written.millis / 1000).toFixed(1)} s`);

    const documents = new SqliteDocumentStore({ filename: config.LOMO_READ_MODELS_PATH });
    const runner = new ProjectionRunner({
      documents,
      events,
      projections: projectorProjections,
      logger: silentLogger,
      rebuildExecutor: rebuildExecutorOf(projectorSettings(config), config),
    });
    note('building the live read models as the projector does ...');
    const liveStarted = performance.now();
    await runner.start();
    await runner.ready();
    await runner.sweep();
    await runner.stop();
    note(`live read models built in ${((performance.now() - liveStarted) / 1000).toFixed(1)} s`);
    const live = await hashAll(documents);
    await documents.close();
    await events.close();

    note(IN_PROCESS ? 'rebuilding in this process ...' : 'running lomo projections rebuild --confirm ...');
    const started = performance.now();
    const summary = IN_PROCESS
      ? await rebuildInProcess(config)
      : await rebuildWithCli(temp.dir, await operatorToken(config));
    const seconds = (performance.now() - started) / 1000;
    note(
      `rebuilt ${summary.names.length} projections: ${summary.events} events in ${(summary.millis / 1000).toFixed(1)} s`,
    );

    const after = new SqliteDocumentStore({ filename: config.LOMO_READ_MODELS_PATH });
    const rebuilt = await hashAll(after);
    await after.close();
    let equal = rebuilt.collections.every((c, i) => c !== live.collections[i]);
    if (!equal) note('some alias still names the collection it named before the rebuild');
    for (const [name, before] of live.hashes) {
      const diff = diffCollections(before, rebuilt.hashes.get(name) ?? new Map());
      if (!diff.equal)
        note(
          `${name}: ${JSON.stringify({ ...diff.counts, missing: diff.missing, extra: diff.extra, different: diff.different })}`,
        );
      equal &&= diff.equal;
    }
    const documentsCompared = [...live.hashes.values()].reduce((n, m) => n + m.size, 0);
    note(`${documentsCompared} documents and applied streams compared: ${equal ? 'equal' : 'NOT equal'}`);
    console.log(
      JSON.stringify({
        events: written.events,
        rebuild_seconds: Number((summary.millis / 1000).toFixed(1)),
        // The CLI's whole run: process start, the rebuild, the readers' grace before retiring.
        wall_seconds: Number(seconds.toFixed(1)),
        rate_per_second: Math.round(summary.events / (summary.millis / 1000)),
        equal,
        via: IN_PROCESS ? 'in-process' : 'cli',
      }),
    );
    return equal;
  } finally {
    temp.remove();
  }
}

main().then(
  (equal) => process.exit(equal ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
