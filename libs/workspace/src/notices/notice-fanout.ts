import { randomUUID } from 'node:crypto';
import { AggregateStream, DEFAULT_CONFLICT_ATTEMPTS } from '@lomo/command-handling';
import { ConcurrencyError, streams, type IdGenerator, type WriteMetadata } from '@lomo/contracts';
import { taskDecider, taskEventTypes, type NoticeArtifactChange, type TaskEvent, type TaskState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import type { ChangeNotice, ChangeNoticeSink, DocumentStore } from '@lomo/read-models';
import type { DocumentStoreWorkspaceReadModel } from '../projection/document-store-workspace-read-model';
import type { TaskArtifactDocument } from '../projection/workspace-documents';
import { WORKSPACE_ARTIFACTS, WORKSPACE_TASK_ARTIFACTS } from '../projection/workspace.projection';
import { planNotices, type PlannedNotice, type ReaderFacts } from './plan-notices';

/** Appends one notice command to a task stream (decided by the task decider). */
export interface TaskNoticeWriter {
  notice(workspaceId: string, taskId: string, command: NoticeArtifactChange): Promise<void>;
}

const DEFAULT_FANOUT_CONCURRENCY = 128;

const randomIds: IdGenerator = { uuid: () => randomUUID() };

/**
 * The task decider decides every notice from the task's stream, with a retry on a concurrent
 * writer: a repeat (same to-version, or covered by an open or consumed notice) is a no-op, so a
 * fan-out redone after a crash appends only what is missing. A task of another workspace, or one
 * that does not exist, is skipped: the reference came from that workspace's own events, so this
 * only guards against a forged id.
 *
 * Task streams stay folded between notices (least recently used out first), so a notice reads
 * only what was appended to its task since the last one: a task with a long history costs the
 * same as a new one (bench/workspace-fanout.ts). The append is fenced at the revision decided on,
 * so a stale cache can only lose a race and fold the rest, never write on an old state.
 */
export class EventStoreTaskNoticeWriter implements TaskNoticeWriter {
  private readonly folded = new Map<string, TaskStream>();

  constructor(
    private readonly events: EventStore,
    private readonly ids: IdGenerator = randomIds,
    private readonly options: { maxCachedTasks?: number; maxAttempts?: number } = {},
  ) {}

  async notice(workspaceId: string, taskId: string, command: NoticeArtifactChange): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? DEFAULT_CONFLICT_ATTEMPTS;
    const stream = this.take(taskId);
    for (let attempt = 1; ; attempt += 1) {
      await stream.catchUp(this.events);
      if (stream.workspaceId !== undefined && stream.workspaceId !== workspaceId) throw new ForeignTaskError(taskId);
      if (stream.state.status === 'none') return;
      const decided = taskDecider.decide(command, stream.state);
      if (decided.length === 0) return;
      try {
        await stream.append(this.events, decided, this.metadata(workspaceId, command), this.ids);
        return;
      } catch (error) {
        // Another writer got there first: fold what it wrote and decide again.
        if (!(error instanceof ConcurrencyError) || attempt >= maxAttempts) {
          this.folded.delete(taskId);
          throw error;
        }
      }
    }
  }

  private take(taskId: string): TaskStream {
    const streamId = streams.task(taskId);
    let stream = this.folded.get(taskId);
    if (stream === undefined) stream = new AggregateStream(streamId, taskDecider, taskEventTypes);
    else this.folded.delete(taskId);
    this.folded.set(taskId, stream);
    const max = this.options.maxCachedTasks ?? DEFAULT_CACHED_TASKS;
    for (const oldest of this.folded.keys()) {
      if (this.folded.size <= max) break;
      this.folded.delete(oldest);
    }
    return stream;
  }

  private metadata(workspaceId: string, command: NoticeArtifactChange): WriteMetadata {
    return {
      correlationId: `notice-${command.noticeId}`,
      causationId: null,
      workspaceId,
      actor: { kind: 'system', component: 'workspace-notices' },
    };
  }
}

type TaskStream = AggregateStream<TaskEvent, TaskState>;
const DEFAULT_CACHED_TASKS = 10_000;

class ForeignTaskError extends Error {
  constructor(readonly taskId: string) {
    super(`Task ${taskId} belongs to another workspace`);
    this.name = 'ForeignTaskError';
  }
}

export interface NoticeFanoutDeps {
  documents: DocumentStore;
  workspace: Pick<DocumentStoreWorkspaceReadModel, 'artifactDocument' | 'versionDocuments' | 'readersOf'>;
  writer: TaskNoticeWriter;
  logger: Logger;
  /**
   * Notices decided and appended at once (default 128). On SQLite the appends made together share
   * one commit (the event store's group commit), so a fan-out to 100 tasks is one fsync, not 100;
   * elsewhere this bounds the reads and writes in flight.
   */
  concurrency?: number;
}

/**
 * The fan-out process manager, thin around `planNotices`: on a change of an artefact's document
 * (a write) it notices every task that saw an older version; on a change of a (task, artefact)
 * document (the task's tool call was projected after the write) it notices that task alone, so
 * the order in which the two projections see their events does not matter. Nothing is kept
 * between calls: the documents are the state, the task decider the idempotence.
 */
export class NoticeFanout {
  constructor(private readonly deps: NoticeFanoutDeps) {}

  async handle(notices: readonly ChangeNotice[]): Promise<number> {
    let appended = 0;
    const artifacts = new Map<string, string>();
    const readers = new Map<string, ChangeNotice>();
    for (const n of notices) {
      if (n.projection === WORKSPACE_ARTIFACTS) artifacts.set(n.documentId, n.workspaceId);
      else if (n.projection === WORKSPACE_TASK_ARTIFACTS) readers.set(n.documentId, n);
    }
    for (const [artifactId, workspaceId] of artifacts) appended += await this.fanOut(workspaceId, artifactId);
    for (const n of readers.values()) {
      const reader = await this.deps.documents.get<TaskArtifactDocument>(n.collection, n.documentId);
      // Its artefact's own fan-out in this batch covered it already.
      if (reader === undefined || artifacts.has(reader.artifactId)) continue;
      appended += await this.fanOut(n.workspaceId, reader.artifactId, [reader]);
    }
    return appended;
  }

  /** Plans and appends the notices of one artefact (for all its readers, or the ones given). */
  async fanOut(workspaceId: string, artifactId: string, only?: readonly ReaderFacts[]): Promise<number> {
    const { workspace } = this.deps;
    const artifact = await workspace.artifactDocument(workspaceId, artifactId);
    if (artifact === undefined) return 0;
    const readers = (only ?? (await workspace.readersOf(workspaceId, artifactId))).filter(
      (r) => r.lastSeenVersion < artifact.version,
    );
    if (readers.length === 0) return 0;
    const floor = Math.min(...readers.map((r) => r.lastSeenVersion));
    const versions = await workspace.versionDocuments(workspaceId, artifactId, floor);
    const planned = planNotices(artifact, versions, readers);
    await this.append(workspaceId, planned);
    return planned.length;
  }

  private async append(workspaceId: string, planned: readonly PlannedNotice[]): Promise<void> {
    const concurrency = Math.max(1, this.deps.concurrency ?? DEFAULT_FANOUT_CONCURRENCY);
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (next < planned.length && !failed) {
        const { taskId, command } = planned[next++]!;
        try {
          await this.deps.writer.notice(workspaceId, taskId, command);
        } catch (error) {
          if (!(error instanceof ForeignTaskError)) {
            failed = true;
            throw error;
          }
          this.deps.logger.warn(
            { taskId, artifactId: command.artifactId },
            'notice for a task of another workspace skipped',
          );
        }
      }
    };
    // Settled, not raced: a failed fan-out returns only once the notices in flight are written or
    // refused, so nothing of it still runs when the projector redoes the batch.
    const settled = await Promise.allSettled(Array.from({ length: Math.min(concurrency, planned.length) }, worker));
    const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
  }
}

/**
 * The fan-out in the projector's change-notice path, like SearchIndexFeeder: the engine publishes
 * a batch's notices after it wrote the documents and before it advances the stream revisions, so
 * if an append fails or the process dies mid-fan-out the batch is redone, the notices come again,
 * and the fan-out appends what is missing (derived notice ids, decider no-ops). A rebuild
 * publishes no notices, so it never fans out again.
 */
export class NoticeFanoutSink implements ChangeNoticeSink {
  constructor(
    private readonly fanout: NoticeFanout,
    private readonly next?: ChangeNoticeSink,
  ) {}

  async publish(notices: readonly ChangeNotice[]): Promise<void> {
    await this.fanout.handle(notices);
    await this.next?.publish(notices);
  }
}
