import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Connection } from './connection';

// GraphQL names upper case; the values are the contracts' artefact kinds.
export const ArtifactKindEnum = {
  IMAGE: 'image',
  VIDEO: 'video',
  THREE_D: '3d',
  AUDIO: 'audio',
  DOCUMENT: 'document',
  ASSET_SET: 'asset_set',
  FLOW: 'flow',
} as const;
registerEnumType(ArtifactKindEnum, { name: 'ArtifactKind', description: 'What an artefact holds.' });

/** What createArtifact makes; media come in through POST /media. */
export const NewArtifactKind = { DOCUMENT: 'document', FLOW: 'flow' } as const;
registerEnumType(NewArtifactKind, {
  name: 'NewArtifactKind',
  description: 'Kinds createArtifact makes; upload media with POST /media instead.',
});

const tokenDescription = 'Pass as `consistentWith` to a query to read only once the read models show this change.';

@ObjectType({ description: 'Who made a version: a person, the agent in a task (with its call), or a generation job.' })
export class ArtifactAuthorView {
  @Field(() => String, { description: '`person`, `agent` or `generation`.' })
  kind!: string;

  @Field(() => String, { nullable: true })
  userId!: string | null;

  @Field(() => ID, { nullable: true })
  taskId!: string | null;

  @Field(() => String, { nullable: true })
  callId!: string | null;

  @Field(() => ID, { nullable: true })
  jobId!: string | null;
}

@ObjectType()
export class ArtifactVersion {
  @Field(() => Int)
  version!: number;

  @Field(() => String)
  at!: string;

  @Field(() => ArtifactAuthorView)
  by!: ArtifactAuthorView;

  @Field(() => String, {
    description: '`created`, `replaced`, `snippets_edited`, `restored`, `flow_nodes` or `flow_structure`.',
  })
  change!: string;

  @Field(() => String, { nullable: true })
  contentType!: string | null;

  @Field(() => Int, { nullable: true })
  bytes!: number | null;

  @Field(() => String, { nullable: true, description: 'What changed, without the text itself.' })
  summary!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Media: this version at the API (GET with your bearer token).',
  })
  mediaUrl!: string | null;
}

@ObjectType()
export class DocumentContent {
  @Field(() => Int)
  version!: number;

  @Field(() => String)
  text!: string;
}

@ObjectType()
export class FlowNodeView {
  @Field(() => String)
  nodeId!: string;

  @Field(() => String)
  kind!: string;

  @Field(() => Int, { description: "The node's own version: an edit names it as its base." })
  version!: number;

  @Field(() => String, { description: 'The params as JSON text.' })
  paramsJson!: string;
}

@ObjectType()
export class FlowEdgeView {
  @Field(() => String)
  edgeId!: string;

  @Field(() => String)
  from!: string;

  @Field(() => String)
  to!: string;
}

@ObjectType()
export class FlowContent {
  @Field(() => Int)
  version!: number;

  @Field(() => Int)
  structureVersion!: number;

  @Field(() => [FlowNodeView])
  nodes!: FlowNodeView[];

  @Field(() => [FlowEdgeView])
  edges!: FlowEdgeView[];
}

@ObjectType()
export class DeletionRequestView {
  @Field(() => ID)
  requestId!: string;

  @Field(() => String)
  by!: string;
}

@ObjectType({ description: 'An artefact of the shared workspace: one identity, its versions, its content.' })
export class Artifact {
  @Field(() => ID)
  id!: string;

  @Field(() => ArtifactKindEnum)
  kind!: string;

  @Field(() => String)
  title!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String)
  updatedAt!: string;

  @Field(() => Boolean)
  deleted!: boolean;

  @Field(() => DeletionRequestView, { nullable: true, description: 'A deletion asked for and not yet confirmed.' })
  deletionRequested!: DeletionRequestView | null;

  @Field(() => [ID], { description: 'Tasks that reference it, the creating task first.' })
  taskIds!: string[];

  @Field(() => [ArtifactVersion])
  versions!: ArtifactVersion[];

  @Field(() => [ID], { nullable: true, description: 'Asset sets: the member artefacts.' })
  members!: string[] | null;

  @Field(() => String, { nullable: true, description: 'Media: the latest version at the API.' })
  mediaUrl!: string | null;

  /** Not in the schema: the field resolvers read content in this workspace only. */
  workspaceId!: string;
}

export const ArtifactConnection = Connection('Artifact', Artifact);

@ObjectType()
export class NodeVersion {
  @Field(() => String)
  nodeId!: string;

  @Field(() => Int)
  version!: number;
}

@ObjectType()
export class ArtifactWritePayload {
  @Field(() => ID)
  artifactId!: string;

  @Field(() => Int, { description: 'The version after the write.' })
  version!: number;

  @Field(() => [NodeVersion], { description: 'Flows: the versions of the nodes you edited.' })
  nodeVersions!: NodeVersion[];

  @Field(() => [NodeVersion], {
    description: 'Flows: nodes others changed since your base version (not the ones you edited).',
  })
  otherChangedNodes!: NodeVersion[];

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType({
  description: 'A deletion asked for: nothing is deleted until confirmArtifactDeletion names this request.',
})
export class ArtifactDeletionRequest {
  @Field(() => ID)
  artifactId!: string;

  @Field(() => ID)
  requestId!: string;

  @Field(() => String, { description: 'What to ask the person before confirming.' })
  question!: string;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType({ description: 'An artefact as it is now: first its current state, then every newer version.' })
export class ArtifactUpdate {
  @Field(() => Artifact)
  artifact!: Artifact;
}

@InputType()
export class FlowNodeInput {
  @Field(() => String)
  nodeId!: string;

  @Field(() => String)
  kind!: string;

  @Field(() => String, { description: 'The params as a JSON object text.', defaultValue: '{}' })
  paramsJson!: string;
}

@InputType()
export class FlowEdgeInput {
  @Field(() => String)
  edgeId!: string;

  @Field(() => String)
  from!: string;

  @Field(() => String)
  to!: string;
}

@InputType()
export class SnippetEditInput {
  @Field(() => String, { description: 'Must occur exactly once in the latest text.' })
  old!: string;

  @Field(() => String)
  new!: string;
}

@InputType()
export class FlowNodeEditInput {
  @Field(() => String)
  nodeId!: string;

  @Field(() => Int, { description: "The node's version you read; refused only if this node changed since." })
  baseNodeVersion!: number;

  @Field(() => String, { description: 'The new params as a JSON object text.' })
  paramsJson!: string;
}
