import { registerEnumType } from '@nestjs/graphql';

// Memory's GraphQL enums: upper-case names, the read model's own strings as values (as enums.ts).

export const MemoryScopeFilter = { LONG_TERM: 'long_term', TASK: 'task', ALL: 'all' } as const;
export type MemoryScopeFilter = (typeof MemoryScopeFilter)[keyof typeof MemoryScopeFilter];

export const MemoryScope = { LONG_TERM: 'long_term', TASK: 'task' } as const;
export const MemoryStatus = { CURRENT: 'current', SUPERSEDED: 'superseded', PURGED: 'purged' } as const;
export type MemoryStatus = (typeof MemoryStatus)[keyof typeof MemoryStatus];
export const MemoryKind = { PREFERENCE: 'preference', FACT: 'fact' } as const;
export const MemoryOrigin = { EXPLICIT: 'explicit', INFERRED: 'inferred' } as const;
export const MemoryVersionCause = {
  EXTRACTED: 'extracted',
  REFINED: 'refined',
  CORRECTED: 'corrected',
  REEXTRACTED: 'reextracted',
} as const;
export const SupersededReason = { REFINED: 'refined', CORRECTED: 'corrected' } as const;
export const EvidenceRole = { ORIGIN: 'ORIGIN', REFINE: 'REFINE', CONFIRM: 'CONFIRM' } as const;
export const EvidenceSourceKind = { MESSAGE: 'message', OBSERVATION: 'observation' } as const;
export const ForgettingStatus = {
  REQUESTED: 'requested',
  CONFIRMED: 'confirmed',
  APPLIED: 'applied',
  COMPLETED: 'completed',
  CANCELLED: 'cancelled',
} as const;
export const ForgettingTargetKind = { MEMORY: 'memory', EVIDENCE: 'evidence' } as const;

registerEnumType(MemoryScopeFilter, {
  name: 'MemoryScopeFilter',
  description: 'Which memories `memories` lists: LONG_TERM ones follow you across tasks, TASK ones inform one task.',
});
registerEnumType(MemoryScope, { name: 'MemoryScope' });
registerEnumType(MemoryStatus, {
  name: 'MemoryStatus',
  description:
    'CURRENT: it stands (for a memory: one of its versions does). SUPERSEDED: a later version refined or corrected it. PURGED: forgotten, its text deleted.',
});
registerEnumType(MemoryKind, { name: 'MemoryKind' });
registerEnumType(MemoryOrigin, {
  name: 'MemoryOrigin',
  description: 'EXPLICIT: you said it in so many words. INFERRED: the system guessed it from what you did.',
});
registerEnumType(MemoryVersionCause, {
  name: 'MemoryVersionCause',
  description:
    'EXTRACTED from your words; REFINED by later words; CORRECTED by you; REEXTRACTED from the evidence left after a forgetting.',
});
registerEnumType(SupersededReason, {
  name: 'SupersededReason',
  description: 'REFINED: it no longer stands. CORRECTED: it stood until `validTo` and still answers for that time.',
});
registerEnumType(EvidenceRole, {
  name: 'EvidenceRole',
  description:
    'How evidence supports a version: ORIGIN (it made the claim), REFINE (it refined it), CONFIRM (it confirmed it as it stood).',
});
registerEnumType(EvidenceSourceKind, {
  name: 'EvidenceSourceKind',
  description:
    'MESSAGE: your own words. OBSERVATION: something the agent did for you (supports inferred memories only).',
});
registerEnumType(ForgettingStatus, {
  name: 'ForgettingStatus',
  description:
    'REQUESTED: waits for your confirmForgetting (nothing is forgotten yet) or cancelForgetting. CONFIRMED: the forgetting is under way. APPLIED: memory is forgotten, the rest is being cleaned. COMPLETED: done, see `report`. CANCELLED.',
});
registerEnumType(ForgettingTargetKind, { name: 'ForgettingTargetKind' });
