import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import type { MemoryOwner } from '@lomo/read-models';
import { Connection } from './connection';
import {
  EvidenceRole,
  EvidenceSourceKind,
  MemoryKind,
  MemoryOrigin,
  MemoryScope,
  MemoryStatus,
  MemoryVersionCause,
  SupersededReason,
} from './memory-enums';
import { BlobRef } from './turn.types';

@ObjectType({
  description:
    'A piece of evidence linked to a memory version, and where it came from. The text stays where it was said (your main line, a task); forgetting revokes its use for memory, not the chat record.',
})
export class MemoryEvidenceLink {
  @Field(() => ID)
  evidenceId!: string;

  @Field(() => EvidenceRole)
  role!: string;

  @Field(() => EvidenceSourceKind, { nullable: true, description: 'Null when the read model has not shown it yet.' })
  sourceKind!: string | null;

  @Field(() => ID, { nullable: true, description: 'The message (MESSAGE evidence).' })
  messageId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The task it was said or done in, if any.' })
  taskId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The turn of the tool call (OBSERVATION evidence).' })
  turnId!: string | null;

  @Field(() => String, { nullable: true })
  callId!: string | null;

  @Field(() => String, { nullable: true })
  tool!: string | null;

  @Field(() => String, { nullable: true, description: 'When it was said or done.' })
  at!: string | null;

  @Field(() => Boolean, { description: 'A forgetting revoked it: it may support no memory again.' })
  revoked!: boolean;
}

@ObjectType({ description: 'One version of a memory, with the evidence it rests on and the versions it came from.' })
export class MemoryVersion {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  memoryId!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => String, { description: 'What it is about, as a dotted key: `brand.colour.main`.' })
  subject!: string;

  @Field(() => MemoryKind)
  kind!: string;

  @Field(() => MemoryScope)
  scope!: string;

  @Field(() => ID, { nullable: true, description: 'The task of a TASK memory.' })
  taskId!: string | null;

  @Field(() => MemoryOrigin)
  origin!: string;

  @Field(() => MemoryVersionCause)
  cause!: string;

  @Field(() => MemoryStatus)
  status!: string;

  @Field(() => Boolean, { description: 'Forgotten: its text is deleted and `text` is null.' })
  purged!: boolean;

  @Field(() => String, { description: 'When it began to hold.' })
  validFrom!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Until when it held (a correction ends it); it still answers for that time.',
  })
  validTo!: string | null;

  @Field(() => ID, { nullable: true, description: 'The version that followed it.' })
  supersededBy!: string | null;

  @Field(() => SupersededReason, { nullable: true })
  supersededReason!: string | null;

  @Field(() => [ID], { description: 'The versions it was derived from (refined or corrected).' })
  derivedFrom!: string[];

  @Field(() => [ID], { description: 'Evidence whose CONFIRM link a forgetting removed.' })
  detachedEvidenceIds!: string[];

  @Field(() => String)
  createdAt!: string;

  @Field(() => BlobRef, { nullable: true, description: 'Where its text is kept; null once purged.' })
  textRef!: BlobRef | null;

  /** Whose memory, for the evidence lookup; not in the schema. */
  owner!: MemoryOwner;

  /** The links as the version holds them; `evidence` resolves their sources. */
  links!: Array<{ evidenceId: string; role: string }>;
}

@ObjectType({
  description:
    'Something the agent remembers about you: a preference or a fact, as a chain of versions. Your memory is yours alone, even in a shared workspace.',
})
export class Memory {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  subject!: string;

  @Field(() => MemoryKind)
  kind!: string;

  @Field(() => MemoryScope)
  scope!: string;

  @Field(() => ID, { nullable: true })
  taskId!: string | null;

  @Field(() => MemoryOrigin, { description: 'Of its latest version.' })
  origin!: string;

  @Field(() => MemoryStatus)
  status!: string;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String, { description: 'When a version was last added or changed.' })
  updatedAt!: string;

  @Field(() => MemoryVersion, { nullable: true, description: 'The version that stands now; null when none does.' })
  currentVersion!: MemoryVersion | null;

  @Field(() => [MemoryVersion], { description: 'Every version, oldest first; purged ones are marked.' })
  versions!: MemoryVersion[];
}

export const MemoryConnection = Connection('Memory', Memory);

@ObjectType()
export class ProfileVersion {
  @Field(() => Int)
  version!: number;

  @Field(() => Boolean, { description: 'Its body named forgotten content and was deleted: it is never used again.' })
  purged!: boolean;

  @Field(() => String)
  publishedAt!: string;

  @Field(() => Boolean, { description: 'Published because of a forgetting.' })
  afterForgetting!: boolean;
}

@ObjectType({
  description:
    'Your profile: a small text made from what you said about yourself that holds long-term, given to the agent in every task. Versioned: a change publishes a new version.',
})
export class Profile {
  @Field(() => Int, { nullable: true, description: 'The version in force; null when every version was purged.' })
  version!: number | null;

  @Field(() => [ID], { description: 'The memory versions the version in force is made of.' })
  memoryVersionIds!: string[];

  @Field(() => [Int], { description: 'Earlier version numbers, oldest first (purged ones included).' })
  earlierVersions!: number[];

  @Field(() => [ProfileVersion], { description: 'Every version, oldest first.' })
  versions!: ProfileVersion[];

  /** The body of the version in force; `text` reads it. Not in the schema. */
  textRef!: BlobRef | null;
}
