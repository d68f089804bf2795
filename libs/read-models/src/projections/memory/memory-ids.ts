import type { MemoryDocType } from './memory.document';

/**
 * A memory document's id: `{workspaceId}.{userId}:{docType}:{id}`, the profile's
 * `{workspaceId}.{userId}:profile`. The person is part of the key, so a reader finds a document
 * only through its person, and another person's stream naming the same id writes another document.
 */
export function memoryDocumentId(
  workspaceId: string,
  userId: string,
  docType: Exclude<MemoryDocType, 'profile'>,
  id: string,
): string;
export function memoryDocumentId(workspaceId: string, userId: string, docType: 'profile'): string;
export function memoryDocumentId(workspaceId: string, userId: string, docType: MemoryDocType, id?: string): string {
  return docType === 'profile' ? `${workspaceId}.${userId}:profile` : `${workspaceId}.${userId}:${docType}:${id}`;
}

/** `memory-{workspaceId}.{userId}` → its person; workspace and user ids are slugs without dots. */
export function memoryOwnerOf(streamId: string): { workspaceId: string; userId: string } {
  const owner = streamId.slice(streamId.indexOf('-') + 1);
  const dot = owner.indexOf('.');
  return { workspaceId: owner.slice(0, dot), userId: owner.slice(dot + 1) };
}

/** The doc type and entity id a document id names (the inverse of memoryDocumentId). */
export function parseMemoryDocumentId(id: string): { docType: MemoryDocType; entityId: string | null } {
  const parts = id.split(':');
  const docType = parts[1] as MemoryDocType;
  return { docType, entityId: docType === 'profile' ? null : (parts[2] ?? null) };
}
