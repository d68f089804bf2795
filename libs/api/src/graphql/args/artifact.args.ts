import { ArgsType, Field, ID, Int } from '@nestjs/graphql';
import { z } from 'zod';
import { artifactKind, flowNodeId } from '@lomo/contracts';
import { MAX_DOCUMENT_CHARS } from '@lomo/workspace';
import { DEFAULT_PAGE_SIZE } from '../../api-settings';
import {
  ArtifactKindEnum,
  FlowEdgeInput,
  FlowNodeEditInput,
  FlowNodeInput,
  NewArtifactKind,
  SnippetEditInput,
} from '../types/artifact.types';
import { consistentWith, entityId, optional, pageArgs } from './input-schemas';

@ArgsType()
export class ArtifactArgs {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true, description: 'A consistency token from a mutation.' })
  consistentWith?: string | null;
}

@ArgsType()
export class ArtifactsArgs {
  @Field(() => ArtifactKindEnum, { nullable: true })
  kind?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only artefacts this task references.' })
  taskId?: string | null;

  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE })
  first!: number;

  @Field(() => String, { nullable: true })
  after?: string | null;

  @Field(() => String, { nullable: true, description: 'A consistency token from a mutation.' })
  consistentWith?: string | null;
}

@ArgsType()
export class DocumentContentArgs {
  @Field(() => Int, { nullable: true, description: 'A version; default the latest.' })
  version?: number | null;
}

@ArgsType()
export class CreateArtifactArgs {
  @Field(() => NewArtifactKind)
  kind!: 'document' | 'flow';

  @Field(() => String)
  title!: string;

  @Field(() => String, { nullable: true, description: 'Documents: the text (markdown).' })
  text?: string | null;

  @Field(() => [FlowNodeInput], { nullable: true, description: 'Flows: the nodes.' })
  nodes?: FlowNodeInput[] | null;

  @Field(() => [FlowEdgeInput], { nullable: true, description: 'Flows: the edges.' })
  edges?: FlowEdgeInput[] | null;

  @Field(() => ID, { nullable: true, description: 'Bind it to this task of your workspace.' })
  taskId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Your id for this creation: a retry with it lands on the same artefact.',
  })
  clientArtifactId?: string | null;
}

@ArgsType()
export class EditDocumentArgs {
  @Field(() => ID)
  id!: string;

  @Field(() => Int, { description: 'The version you read.' })
  baseVersion!: number;

  @Field(() => String, { nullable: true, description: 'The whole new text; or give `edits`.' })
  content?: string | null;

  @Field(() => [SnippetEditInput], { nullable: true, description: 'Snippet edits, all or none; or give `content`.' })
  edits?: SnippetEditInput[] | null;
}

@ArgsType()
export class EditFlowNodesArgs {
  @Field(() => ID)
  flowId!: string;

  @Field(() => Int, { description: 'The flow version you read.' })
  baseVersion!: number;

  @Field(() => [FlowNodeEditInput])
  edits!: FlowNodeEditInput[];
}

@ArgsType()
export class ArtifactIdArgs {
  @Field(() => ID)
  id!: string;
}

@ArgsType()
export class ConfirmArtifactDeletionArgs {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { description: 'The requestId deleteArtifact returned.' })
  requestId!: string;
}

const title = z.string().trim().min(1).max(300);
const documentText = z.string().max(MAX_DOCUMENT_CHARS);
const version = z.number().int().min(1);
const clientArtifactId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, '1-128 of [A-Za-z0-9_.:-]');

/** A JSON object as text: what node params are over GraphQL (a JSON scalar would hide the shape). */
const paramsJson = z
  .string()
  .max(100_000)
  .transform((text, context) => {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // reported below
    }
    context.addIssue({ code: 'custom', message: 'a JSON object' });
    return z.NEVER;
  });
const nodeKind = z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'a lower-case kind');

export const artifactArgsSchema = z.strictObject({ id: entityId, consistentWith });
export const artifactsArgsSchema = z.strictObject({
  ...pageArgs,
  kind: optional(artifactKind),
  taskId: optional(entityId),
  consistentWith,
});
export const documentContentArgsSchema = z.strictObject({ version: optional(version) });

export const createArtifactSchema = z
  .strictObject({
    kind: z.enum(['document', 'flow']),
    title,
    text: optional(documentText),
    nodes: optional(z.array(z.strictObject({ nodeId: flowNodeId, kind: nodeKind, paramsJson })).max(5_000)),
    edges: optional(z.array(z.strictObject({ edgeId: flowNodeId, from: flowNodeId, to: flowNodeId })).max(20_000)),
    taskId: optional(entityId),
    clientArtifactId: optional(clientArtifactId),
  })
  .refine((a) => a.kind !== 'document' || (a.nodes === undefined && a.edges === undefined), {
    message: 'a document has text, not nodes or edges',
    path: ['nodes'],
  })
  .refine((a) => a.kind !== 'flow' || a.text === undefined, { message: 'a flow has nodes, not text', path: ['text'] });

export const editDocumentSchema = z
  .strictObject({
    id: entityId,
    baseVersion: version,
    content: optional(documentText),
    edits: optional(
      z
        .array(z.strictObject({ old: z.string().min(1).max(20_000), new: z.string().max(20_000) }))
        .min(1)
        .max(100),
    ),
  })
  .refine((a) => (a.content === undefined) !== (a.edits === undefined), {
    message: 'give exactly one of content and edits',
    path: ['content'],
  });

export const editFlowNodesSchema = z.strictObject({
  flowId: entityId,
  baseVersion: version,
  edits: z
    .array(z.strictObject({ nodeId: flowNodeId, baseNodeVersion: version, paramsJson }))
    .min(1)
    .max(500),
});

export const artifactIdSchema = z.strictObject({ id: entityId });
export const confirmArtifactDeletionSchema = z.strictObject({ id: entityId, requestId: entityId });
