import type { Clock } from '@lomo/contracts';
import { decodeRevisions, type DocumentStore, type Filter } from '@lomo/read-models';
import { accountSummary, workspaceDayOf } from '../account/account-queries';
import {
  ACCOUNTS,
  ACCOUNT_LEDGER,
  GENERATION_JOBS,
  accountStateOf,
  activePhases,
  type AccountDocument,
  type GenerationJobDocument,
  type LedgerEntryDocument,
} from './generation-documents';
import type {
  AccountView,
  GenerationJobRecord,
  GenerationReadModel,
  LedgerEntryView,
  LedgerPage,
} from './generation-read-model';

/** Resolves a projection's physical collection through its alias (undefined before the first build). */
export type CollectionOf = (projection: string) => Promise<string | undefined>;

const PAGE = 500;
const MAX_FIRST = 200;
const MAX_ACTIVE = 1000;

/**
 * The generation read model over the projector's documents. The account summary is computed at
 * read time with the decider's own query (accountSummary) for the workspace's current day, from
 * the clock given here: the same figures the decider would enforce now.
 */
export class DocumentStoreGenerationReadModel implements GenerationReadModel {
  constructor(
    private readonly documents: DocumentStore,
    private readonly collectionOf: CollectionOf,
    private readonly clock: Clock,
  ) {}

  async jobsOfTask(workspaceId: string, taskId: string): Promise<GenerationJobRecord[]> {
    return this.scanJobs({ workspaceId, taskId, created: true }, Number.MAX_SAFE_INTEGER);
  }

  async job(workspaceId: string, jobId: string): Promise<GenerationJobRecord | undefined> {
    const collection = await this.collectionOf(GENERATION_JOBS);
    if (collection === undefined) return undefined;
    const doc = await this.documents.get<GenerationJobDocument>(collection, jobId);
    return doc?.created && doc.workspaceId === workspaceId ? toJobView(doc) : undefined;
  }

  async activeJobs(limit: number): Promise<GenerationJobRecord[]> {
    const bounded = Math.max(0, Math.min(MAX_ACTIVE, Math.floor(limit)));
    if (bounded === 0) return [];
    return this.scanJobs({ phase: { $in: [...activePhases] }, created: true }, bounded);
  }

  async recentlyEnded(since: string, limit: number): Promise<GenerationJobRecord[]> {
    const bounded = Math.max(0, Math.min(MAX_ACTIVE, Math.floor(limit)));
    if (bounded === 0) return [];
    return this.scanJobs(
      { phase: { $in: ['completed', 'failed'] }, updatedAt: { $gte: since }, created: true },
      bounded,
    );
  }

  async account(workspaceId: string): Promise<AccountView | undefined> {
    const collection = await this.collectionOf(ACCOUNTS);
    if (collection === undefined) return undefined;
    const doc = await this.documents.get<AccountDocument>(collection, workspaceId);
    if (doc === undefined || doc.workspaceId !== workspaceId) return undefined;
    const state = accountStateOf(doc.state);
    return { workspaceId, ...accountSummary(state, workspaceDayOf(state, this.clock.now())) };
  }

  async ledger(workspaceId: string, first: number, after?: string): Promise<LedgerPage> {
    const collection = await this.collectionOf(ACCOUNT_LEDGER);
    if (collection === undefined) return { items: [], hasNextPage: false };
    const page = await this.documents.find<LedgerEntryDocument>(collection, {
      filter: { workspaceId, listed: true },
      sort: [['position', 1]],
      limit: Math.max(0, Math.min(MAX_FIRST, first)),
      ...(after !== undefined ? { after } : {}),
    });
    return {
      items: page.items.map(toLedgerView),
      ...(page.endCursor !== undefined ? { endCursor: page.endCursor } : {}),
      hasNextPage: page.hasMore,
    };
  }

  private async scanJobs(filter: Filter, limit: number): Promise<GenerationJobRecord[]> {
    const collection = await this.collectionOf(GENERATION_JOBS);
    if (collection === undefined) return [];
    const out: GenerationJobRecord[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.documents.find<GenerationJobDocument>(collection, {
        filter,
        sort: [['requestedAt', 1]],
        limit: Math.min(PAGE, limit - out.length),
        after,
      });
      out.push(...page.items.map(toJobView));
      if (!page.hasMore || out.length >= limit) return out;
      after = page.endCursor;
    }
  }
}

/** A created document: every fact of GenerationRequested is set (see evolveJob). */
export function toJobView(d: GenerationJobDocument): GenerationJobRecord {
  return {
    jobId: d.jobId,
    workspaceId: d.workspaceId,
    taskId: d.taskId ?? '',
    turnId: d.turnId ?? '',
    callId: d.callId ?? '',
    provider: d.provider ?? '',
    kind: d.kind ?? '',
    operation: d.operation ?? '',
    phase: d.phase ?? 'requested',
    progress: d.progress,
    quote: d.quote === null ? { quoteId: '', amountMinor: 0, currency: '', units: 0, unit: '' } : { ...d.quote },
    approval: d.approval === null ? null : { ...d.approval },
    chargedMinor: d.chargedMinor,
    refundedMinor: d.refundedMinor,
    artifactId: d.artifactId,
    failure: d.failure === null ? null : { ...d.failure },
    upstreamJobId: d.upstreamJobId,
    requestedAt: d.requestedAt ?? '',
    submittedAt: d.submittedAt,
    completedAt: d.completedAt,
    failedAt: d.failedAt,
    updatedAt: d.updatedAt ?? d.requestedAt ?? '',
    revision: decodeRevisions(d._streams)[`generation-${d.jobId}`] ?? -1,
  };
}

function toLedgerView(d: LedgerEntryDocument): LedgerEntryView {
  return {
    entryId: d.entryId,
    workspaceId: d.workspaceId,
    jobId: d.jobId,
    kind: d.kind ?? 'reservation',
    amountMinor: d.amountMinor,
    currency: d.currency ?? '',
    at: d.at ?? '',
    position: d.position,
  };
}
