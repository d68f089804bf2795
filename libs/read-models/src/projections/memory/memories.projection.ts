import { memoryEventTypes } from '@lomo/domain';
import type { KnownEvent, KnownEventType } from '../engine/known-event';
import type { ProjectionDefinition } from '../engine/projection-definition';
import { deriveMemoryChain, evolveMemoryChain } from './memory-chain.evolve';
import { memoryDocumentId, memoryOwnerOf, parseMemoryDocumentId } from './memory-ids';
import { evolveMemoryRecord } from './memory-records.evolve';
import type { MemoryDocument } from './memory.document';

/**
 * The memory stream's events this projection folds: all but ExtractionSuppressed (the forgetting's
 * report lists its suppressions, and fingerprints are no reader's business).
 */
const foldedMemoryEvents: readonly KnownEventType[] = memoryEventTypes.filter((t) => t !== 'ExtractionSuppressed');

function memoryDocumentIds(event: KnownEvent): readonly string[] {
  const { workspaceId, userId } = memoryOwnerOf(event.metadata.streamId);
  const id = (docType: 'memory' | 'evidence' | 'forgetting' | 'summary', entityId: string) =>
    memoryDocumentId(workspaceId, userId, docType, entityId);
  switch (event.type) {
    case 'MemoryEvidenceRecorded':
    case 'MemoryExtractionRecorded':
      return [id('evidence', event.data.evidenceId)];
    case 'MemoryVersionCreated':
    case 'MemoryVersionConfirmed':
    case 'MemoryVersionSuperseded':
    case 'MemoryVersionPurged':
    case 'MemoryEvidenceDetached':
      return [id('memory', event.data.memoryId)];
    case 'ForgettingRequested':
    case 'ForgettingConfirmed':
    case 'ForgettingCancelled':
    case 'ForgettingCompleted':
      return [id('forgetting', event.data.forgettingId)];
    case 'EvidenceRevoked':
      return [
        id('forgetting', event.data.forgettingId),
        ...event.data.evidenceIds.map((evidenceId) => id('evidence', evidenceId)),
      ];
    case 'ProfileVersionPublished':
    case 'ProfileVersionPurged':
      return [memoryDocumentId(workspaceId, userId, 'profile')];
    case 'EpisodeSummaryWritten':
      return event.data.supersedes === undefined
        ? [id('summary', event.data.summaryId)]
        : [id('summary', event.data.summaryId), id('summary', event.data.supersedes)];
    case 'EpisodeSummaryInvalidated':
      return [id('summary', event.data.summaryId)];
    default:
      return [];
  }
}

function blankMemoryDocument(id: string, event: KnownEvent): MemoryDocument {
  const { docType, entityId } = parseMemoryDocumentId(id);
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    docType,
    userId: memoryOwnerOf(event.metadata.streamId).userId,
    entityId,
    changedSeq: -1,
    createdAt: null,
    updatedAt: null,
    subject: null,
    kind: null,
    origin: null,
    scopeKind: null,
    taskId: null,
    versions: [],
    status: null,
    currentVersionId: null,
    evidence: null,
    profile: null,
    forgetting: null,
    summary: null,
  };
}

const evolveMemoryDocument = (document: MemoryDocument, event: KnownEvent): MemoryDocument =>
  document.docType === 'memory' ? evolveMemoryChain(document, event) : evolveMemoryRecord(document, event);

const deriveMemoryDocument = (document: MemoryDocument): MemoryDocument =>
  document.docType === 'memory' ? deriveMemoryChain(document) : document;

const fromMemory = { owner: 'stream', category: 'memory' } as const;
const derived = { owner: 'derived' } as const;

/**
 * `memories`: one person's memory (issue 18 item 7): memories by scope and status with their
 * versions and evidence links, the evidence itself, profile versions, forgettings with their
 * reports and episode summaries. Every field comes from the person's one memory stream; lists are
 * filtered by workspace, person and doc type, newest change first.
 */
export const memoriesProjection: ProjectionDefinition<MemoryDocument> = {
  name: 'memories',
  version: 1,
  categories: ['memory'],
  handles: foldedMemoryEvents,
  indexes: [
    { fields: { workspaceId: 1, userId: 1, docType: 1, changedSeq: -1 } },
    { fields: { workspaceId: 1, userId: 1, docType: 1, status: 1, changedSeq: -1 } },
    { fields: { workspaceId: 1, userId: 1, docType: 1, scopeKind: 1, changedSeq: -1 } },
    { fields: { workspaceId: 1, userId: 1, docType: 1, taskId: 1, changedSeq: -1 } },
  ],
  ownership: {
    docType: fromMemory,
    userId: fromMemory,
    entityId: fromMemory,
    changedSeq: fromMemory,
    createdAt: fromMemory,
    updatedAt: fromMemory,
    subject: fromMemory,
    kind: fromMemory,
    origin: fromMemory,
    scopeKind: fromMemory,
    taskId: fromMemory,
    versions: fromMemory,
    status: derived,
    currentVersionId: derived,
    evidence: fromMemory,
    profile: fromMemory,
    forgetting: fromMemory,
    summary: fromMemory,
  },
  documentIds: memoryDocumentIds,
  blank: blankMemoryDocument,
  evolve: evolveMemoryDocument,
  derive: deriveMemoryDocument,
};
