import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ForgettingStatus, ForgettingTargetKind } from './memory-enums';
import { StepRef } from './task.types';

const tokenDescription = 'Pass as `consistentWith` to a query to read only once the read models show this change.';

@ObjectType({
  description: 'What you asked to forget: a memory (the evidence behind its versions), or given evidence.',
})
export class ForgettingTarget {
  @Field(() => ForgettingTargetKind)
  kind!: string;

  @Field(() => ID, { nullable: true })
  memoryId!: string | null;

  @Field(() => [ID], { description: 'Evidence named directly (EVIDENCE targets); empty otherwise.' })
  evidenceIds!: string[];
}

@ObjectType()
export class MemoryVersionRef {
  @Field(() => ID)
  memoryId!: string;

  @Field(() => ID)
  versionId!: string;

  @Field(() => Int)
  version!: number;
}

@ObjectType()
export class DetachedEvidence {
  @Field(() => ID, { nullable: true })
  memoryId!: string | null;

  @Field(() => ID)
  versionId!: string;

  @Field(() => ID)
  evidenceId!: string;
}

@ObjectType({
  description:
    'What confirming the forgetting will reach, computed from your memory when you asked. Memory and context derived from it only: your messages stay in the chat record, and artefacts and billing are untouched.',
})
export class ForgettingImpact {
  @Field(() => [ID], { description: 'Evidence that may support no memory again.' })
  evidenceIds!: string[];

  @Field(() => [MemoryVersionRef], {
    description: 'Versions that depend on it, directly or by derivation: their text is deleted.',
  })
  purgedVersions!: MemoryVersionRef[];

  @Field(() => [ID], {
    description: 'Memories whose standing version goes; they are re-extracted from the evidence that remains.',
  })
  memoriesLosingCurrent!: string[];

  @Field(() => [DetachedEvidence], { description: 'Confirmations removed from versions that stand on other evidence.' })
  detached!: DetachedEvidence[];

  @Field(() => Boolean, {
    description: 'The profile in force names a purged version: a new profile version is published.',
  })
  profileAffected!: boolean;

  @Field(() => [Int], { description: 'Profile versions whose body is deleted.' })
  profileVersionsPurged!: number[];

  @Field(() => [ID], { description: 'Episode summaries that relied on it: invalidated and rebuilt.' })
  summariesInvalidated!: string[];
}

@ObjectType({ description: "One task's context a forgetting took out of later prompts, by recorded provenance." })
export class ExcludedContext {
  @Field(() => ID)
  taskId!: string;

  @Field(() => [ID])
  messageIds!: string[];

  @Field(() => [StepRef], { description: 'Steps whose reply or tool results relied on the forgotten content.' })
  steps!: StepRef[];

  @Field(() => [ID], { description: 'History segments excluded.' })
  segmentIds!: string[];

  @Field(() => [ID], {
    description:
      'Tool calls of the excluded steps that wrote the task brief or checklist plan: what they wrote is left out of prompts until a later write replaces it.',
  })
  calls!: string[];
}

@ObjectType({ description: 'What a completed forgetting did, as its runner recorded it.' })
export class ForgettingReport {
  @Field(() => [ID])
  revokedEvidenceIds!: string[];

  @Field(() => [ID])
  purgedVersionIds!: string[];

  @Field(() => [ID], { description: 'New versions re-extracted from the remaining evidence.' })
  reextractedVersionIds!: string[];

  @Field(() => [DetachedEvidence])
  detached!: DetachedEvidence[];

  @Field(() => Int, { nullable: true, description: 'The profile version published by the forgetting.' })
  profileVersion!: number | null;

  @Field(() => [Int])
  purgedProfileVersions!: number[];

  @Field(() => [ID])
  summariesInvalidated!: string[];

  @Field(() => [ID])
  summariesRebuilt!: string[];

  @Field(() => [String], { description: 'Keyword and vector index entries deleted.' })
  indexEntriesDeleted!: string[];

  @Field(() => [String], {
    description: 'Fingerprints of claims that will not be extracted again from earlier evidence.',
  })
  suppressions!: string[];

  @Field(() => Int, { description: 'Blobs (memory texts, summaries, profile bodies) deleted.' })
  blobsDeleted!: number;

  @Field(() => [ExcludedContext])
  excluded!: ExcludedContext[];
}

@ObjectType({
  description:
    'A request to forget. Nothing is forgotten until you confirm it (confirmForgetting). Forgetting concerns memory and the context derived from it (summaries, the profile, indexes, the agent’s earlier outputs that relied on it); it does not delete the raw chat record, artefacts or billing.',
})
export class Forgetting {
  @Field(() => ID)
  id!: string;

  @Field(() => ForgettingStatus)
  status!: string;

  @Field(() => ForgettingTarget)
  target!: ForgettingTarget;

  @Field(() => [ID], { description: 'The evidence it revokes, fixed when you asked.' })
  evidenceIds!: string[];

  @Field(() => String, {
    nullable: true,
    description: 'Null in a mutation’s answer; query `forgetting` for the times.',
  })
  requestedAt!: string | null;

  @Field(() => String, { nullable: true })
  confirmedAt!: string | null;

  @Field(() => String, { nullable: true })
  cancelledAt!: string | null;

  @Field(() => String, { nullable: true })
  completedAt!: string | null;

  @Field(() => ForgettingReport, { nullable: true, description: 'Once COMPLETED.' })
  report!: ForgettingReport | null;
}

@ObjectType()
export class ForgetMemoryPayload {
  @Field(() => Forgetting, { description: 'The pending forgetting (REQUESTED).' })
  forgetting!: Forgetting;

  @Field(() => ForgettingImpact)
  affects!: ForgettingImpact;

  @Field(() => String, { description: 'What to ask the person before confirmForgetting.' })
  question!: string;

  @Field(() => Boolean, { description: 'False when this forgettingId was already asked for (a retry).' })
  created!: boolean;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType()
export class ForgettingChangePayload {
  @Field(() => Forgetting)
  forgetting!: Forgetting;

  @Field(() => Boolean, { description: 'False when it already was in that state.' })
  changed!: boolean;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType()
export class CorrectMemoryPayload {
  @Field(() => ID)
  memoryId!: string;

  @Field(() => ID, { description: 'The new version.' })
  versionId!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => ID, { description: 'The version it corrected; it stays the answer until `validFrom`.' })
  correctedVersionId!: string;

  @Field(() => String)
  validFrom!: string;

  @Field(() => Boolean, { description: 'False when this clientCorrectionId was already applied (a retry).' })
  changed!: boolean;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}
