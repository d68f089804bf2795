import { Inject } from '@nestjs/common';
import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { Caller } from '@lomo/auth';
import { notFound, validationFailed } from '@lomo/contracts';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { ReadAfterWrite } from '../../consistency/read-after-write';
import { ApiWorkspace } from '../../workspace/api-workspace';
import {
  ArtifactArgs,
  ArtifactsArgs,
  DocumentContentArgs,
  artifactArgsSchema,
  artifactsArgsSchema,
  documentContentArgsSchema,
} from '../args/artifact.args';
import { validate } from '../args/input-schemas';
import { mapArtifact } from '../mappers/map-artifact';
import { decodeCursor, encodeCursor } from '../paging';
import { Artifact, ArtifactConnection, DocumentContent, FlowContent } from '../types/artifact.types';
import type { ConnectionShape } from '../types/connection';

/**
 * Artefacts of the caller's workspace from the workspace read model, and their content from the
 * authoritative reader. Every read is scoped by the caller's workspace, so another workspace's id
 * is NOT_FOUND exactly like an id that does not exist.
 */
@Resolver(() => Artifact)
export class ArtifactsResolver {
  constructor(
    @Inject(ApiWorkspace) private readonly workspace: ApiWorkspace,
    @Inject(ReadAfterWrite) private readonly readAfterWrite: ReadAfterWrite,
  ) {}

  @Query(() => Artifact, {
    description:
      'An artefact of your workspace with its versions; deleted ones still answer, marked deleted. NOT_FOUND for an unknown id and for another workspace’s.',
  })
  async artifact(@CurrentCaller() caller: Caller, @Args() args: ArtifactArgs): Promise<Artifact> {
    const { id, consistentWith } = validate(artifactArgsSchema, args);
    const { readModel } = this.workspace.ports();
    await this.readAfterWrite.await(caller, consistentWith);
    const view = await readModel.artifact(caller.workspaceId, id);
    if (view === undefined) throw notFound('artifact', id);
    return mapArtifact(view);
  }

  @Query(() => ArtifactConnection, {
    description:
      "Your workspace's artefacts, oldest first, of one kind or referenced by one task; deleted ones are left out.",
  })
  async artifacts(@CurrentCaller() caller: Caller, @Args() args: ArtifactsArgs): Promise<ConnectionShape<Artifact>> {
    const { kind, taskId, first, after, consistentWith } = validate(artifactsArgsSchema, args);
    const { readModel } = this.workspace.ports();
    await this.readAfterWrite.await(caller, consistentWith);
    // The read model hands out one cursor per page (after its last item); an edge inside a page
    // resumes as "that page's start, skipping i + 1", as pageOfStore does for the other lists.
    const start = decodeCursor(after);
    let page: Awaited<ReturnType<typeof readModel.artifacts>>;
    try {
      page = await readModel.artifacts(
        caller.workspaceId,
        { ...(kind !== undefined ? { kind } : {}), ...(taskId !== undefined ? { taskId } : {}) },
        { first: first + start.s, ...(start.a !== undefined ? { after: start.a } : {}) },
      );
    } catch (error) {
      if (error instanceof Error && /cursor/i.test(error.message)) {
        throw validationFailed([{ path: 'after', message: 'not a cursor this API issued' }]);
      }
      throw error;
    }
    const items = page.items.slice(start.s);
    const edges = items.map((view, i) => ({
      node: mapArtifact(view),
      cursor:
        i === items.length - 1 && page.endCursor !== undefined
          ? encodeCursor({ a: page.endCursor, s: 0 })
          : encodeCursor({ ...(start.a !== undefined ? { a: start.a } : {}), s: start.s + i + 1 }),
    }));
    return {
      edges,
      pageInfo: {
        hasNextPage: page.hasNextPage,
        hasPreviousPage: after !== undefined,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? after ?? null,
      },
    };
  }

  @ResolveField(() => DocumentContent, {
    nullable: true,
    description: 'Documents: the text of a version (default the latest); null for other kinds.',
  })
  async document(@Parent() artifact: Artifact, @Args() args: DocumentContentArgs): Promise<DocumentContent | null> {
    const { version } = validate(documentContentArgsSchema, args);
    if (artifact.kind !== 'document') return null;
    const read = await this.workspace.ports().reader.documentText(artifact.workspaceId, artifact.id, version);
    return read ?? null;
  }

  @ResolveField(() => FlowContent, {
    nullable: true,
    description: 'Flows: nodes with params, and edges; null for other kinds.',
  })
  async flow(@Parent() artifact: Artifact): Promise<FlowContent | null> {
    if (artifact.kind !== 'flow') return null;
    const flow = await this.workspace.ports().reader.flow(artifact.workspaceId, artifact.id);
    if (flow === undefined) return null;
    return {
      version: flow.version,
      structureVersion: flow.structureVersion,
      nodes: flow.nodes.map((n) => ({
        nodeId: n.nodeId,
        kind: n.kind,
        version: n.version,
        paramsJson: JSON.stringify(n.params),
      })),
      edges: flow.edges.map((e) => ({ ...e })),
    };
  }
}
