import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { authenticate, type Caller } from '@lomo/auth';
import { BLOB_STORE, type BlobStore } from '@lomo/blobs';
import { ApiError, ApiErrorCodes, isLomoError, notFound, streams, type ArtifactKind } from '@lomo/contracts';
import { LOGGER, type Logger } from '@lomo/observability';
import { ArtifactRefusedError } from '@lomo/workspace';
import { API_IP_RATE_LIMITER, API_SETTINGS, API_TOKENS } from '../api-di-tokens';
import type { ApiSettings } from '../api-settings';
import type { ApiTokens } from '@lomo/auth';
import { tokenForWrites } from '../consistency/token-for-writes';
import { currentTrace } from '../consistency/current-trace';
import { artifactIdFor } from '../graphql/resolvers/artifact-mutations.resolver';
import { mediaPath } from '../graphql/mappers/map-artifact';
import type { TokenBucketRateLimiter } from '../limits/token-bucket';
import { StreamOwnership } from '../tenancy/stream-ownership';
import { ApiWorkspace } from '../workspace/api-workspace';

export const MEDIA_PATH = '/media';

/**
 * The media types an upload may have, by artefact kind. An allow-list: what the API serves back
 * with its stored type must never be something a browser runs (no SVG, no HTML).
 */
export const MEDIA_TYPES: Readonly<Record<string, ArtifactKind>> = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/gif': 'image',
  'image/webp': 'image',
  'image/avif': 'image',
  'video/mp4': 'video',
  'video/webm': 'video',
  'video/quicktime': 'video',
  'audio/mpeg': 'audio',
  'audio/wav': 'audio',
  'audio/ogg': 'audio',
  'audio/webm': 'audio',
  'audio/mp4': 'audio',
  'model/gltf+json': '3d',
  'model/gltf-binary': '3d',
};
const MEDIA_KINDS = new Set<ArtifactKind>(['image', 'video', '3d', 'audio']);

const uploadQuery = z.strictObject({
  title: z.string().trim().min(1).max(300).optional(),
  taskId: z.uuid().optional(),
  clientArtifactId: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,128}$/)
    .optional(),
});
const artifactIdParam = z.uuid();
const versionParam = z.coerce.number().int().min(1).max(1_000_000_000);

const httpError = (
  code: (typeof ApiErrorCodes)[keyof typeof ApiErrorCodes],
  status: number,
  message: string,
  details = {},
) => new ApiError(code, message, details, { httpStatus: status });

/**
 * Media bytes of the shared workspace over plain HTTP, authorized like GraphQL (a bearer token,
 * one workspace): GET serves a version from the BlobStore with its stored content type; POST
 * takes a person's upload (size limit LOMO_MEDIA_MAX_BYTES, content-type allow-list) and creates
 * the artefact. Another workspace's artefact is 404 exactly like one that does not exist.
 */
@Controller(MEDIA_PATH)
export class MediaController {
  private readonly logger: Logger;

  constructor(
    @Inject(API_SETTINGS) private readonly settings: ApiSettings,
    @Inject(API_TOKENS) private readonly tokens: ApiTokens,
    @Inject(API_IP_RATE_LIMITER) private readonly ipLimiter: TokenBucketRateLimiter,
    @Inject(ApiWorkspace) private readonly workspace: ApiWorkspace,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(StreamOwnership) private readonly ownership: StreamOwnership,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'media' });
  }

  @Get(':artifactId')
  latest(@Req() req: Request, @Res() res: Response, @Param('artifactId') artifactId: string): Promise<void> {
    return this.answer(res, () => this.download(req, res, artifactId, undefined));
  }

  @Get(':artifactId/:version')
  version(
    @Req() req: Request,
    @Res() res: Response,
    @Param('artifactId') artifactId: string,
    @Param('version') version: string,
  ): Promise<void> {
    return this.answer(res, () => this.download(req, res, artifactId, version));
  }

  @Post()
  upload(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answer(res, () => this.receive(req, res));
  }

  private async caller(req: Request): Promise<Caller> {
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    if (!this.ipLimiter.take(address, 1).allowed) {
      throw httpError(ApiErrorCodes.RATE_LIMITED, 429, 'Too many requests for this client address', {});
    }
    return authenticate(req.header('authorization'), this.tokens);
  }

  private async download(req: Request, res: Response, rawId: string, rawVersion: string | undefined): Promise<void> {
    const caller = await this.caller(req);
    const { readModel } = this.workspace.ports();
    const id = artifactIdParam.safeParse(rawId);
    const version = rawVersion === undefined ? undefined : versionParam.safeParse(rawVersion);
    // A malformed id or version names nothing that exists: the same 404 as an unknown one.
    if (!id.success || (version !== undefined && !version.success)) throw this.missing(rawId);
    const view = await readModel.artifact(caller.workspaceId, id.data);
    if (view === undefined || view.deleted || !MEDIA_KINDS.has(view.kind)) throw this.missing(id.data);
    const wanted = version?.data ?? view.version;
    const entry = view.versions.find((v) => v.version === wanted);
    if (entry?.contentHash === undefined) throw this.missing(id.data);
    const bytes = await this.blobs.get(entry.contentHash);
    if (bytes === undefined) throw this.missing(id.data);
    res.status(200);
    res.setHeader('Content-Type', entry.contentType ?? 'application/octet-stream');
    res.setHeader('Content-Length', String(bytes.length));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Disposition', 'inline');
    res.setHeader('ETag', `"${entry.contentHash}"`);
    // A numbered version never changes; the latest does. Private: it needs the bearer token.
    res.setHeader(
      'Cache-Control',
      version === undefined ? 'private, no-cache' : 'private, max-age=31536000, immutable',
    );
    res.end(bytes);
  }

  private async receive(req: Request, res: Response): Promise<void> {
    const caller = await this.caller(req);
    const { commands } = this.workspace.ports();
    const contentType = (req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
    const kind = MEDIA_TYPES[contentType];
    if (kind === undefined) {
      throw httpError(
        ApiErrorCodes.UNSUPPORTED_MEDIA_TYPE,
        415,
        `Content type "${contentType.slice(0, 100)}" is not accepted; send one of ${Object.keys(MEDIA_TYPES).join(', ')}`,
        { accepted: Object.keys(MEDIA_TYPES) },
      );
    }
    const query = uploadQuery.safeParse(req.query);
    if (!query.success) {
      throw httpError(
        ApiErrorCodes.VALIDATION_FAILED,
        400,
        'Invalid upload parameters: title, taskId, clientArtifactId',
        {
          issues: query.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        },
      );
    }
    const bytes = await this.readBody(req);
    if (bytes.length === 0) throw httpError(ApiErrorCodes.VALIDATION_FAILED, 400, 'An upload carries its bytes', {});
    const { title, taskId, clientArtifactId } = query.data;
    if (taskId !== undefined) await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    const trace = currentTrace();
    const result = await commands.create(
      {
        artifactId: artifactIdFor(caller, clientArtifactId),
        kind,
        title: title ?? `Upload ${new Date().toISOString()}`,
        by: { kind: 'person', userId: caller.userId },
        ...(taskId !== undefined ? { taskId } : {}),
        content: { type: 'blob', bytes, contentType },
      },
      {
        workspaceId: caller.workspaceId,
        correlationId: trace.correlationId,
        causationId: trace.causationId,
        actor: { kind: 'user', userId: caller.userId },
      },
    );
    res.status(201).json({
      artifactId: result.artifactId,
      version: result.version,
      kind,
      contentType,
      bytes: bytes.length,
      mediaUrl: mediaPath(result.artifactId, result.version),
      consistencyToken: tokenForWrites([
        { streamId: streams.artifact(result.artifactId), revision: result.streamRevision },
      ]),
    });
  }

  /** The body, refused with 413 as soon as it passes the limit (declared or streamed). */
  private async readBody(req: Request): Promise<Buffer> {
    const max = this.settings.mediaMaxBytes;
    const tooLarge = (bytes: number) =>
      httpError(ApiErrorCodes.PAYLOAD_TOO_LARGE, 413, `An upload of ${bytes} bytes exceeds ${max}`, { maxBytes: max });
    const declared = Number(req.header('content-length') ?? '0');
    if (declared > max) throw tooLarge(declared);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > max) throw tooLarge(total);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  private missing(id: string): ApiError {
    const error = notFound('artifact', id);
    return new ApiError(error.code, error.message, error.details as Record<string, unknown>, { httpStatus: 404 });
  }

  /** Every refusal as `{ error: { code, message, ...details } }` with its status; the rest logged, 500. */
  private async answer(res: Response, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof ApiError || isLomoError(error)) {
        const status = error instanceof ApiError ? (error.httpStatus ?? statusOf(error.code)) : 400;
        if (error.code === ApiErrorCodes.UNAUTHENTICATED) res.setHeader('WWW-Authenticate', 'Bearer');
        // A refused upload may still be streaming in: close after answering, read no further.
        res.setHeader('Connection', 'close');
        res.status(status).json({ error: { code: error.code, message: error.message, ...error.details } });
        return;
      }
      if (error instanceof ArtifactRefusedError) {
        const notFoundCode = error.code === 'ARTIFACT_NOT_FOUND';
        res.status(notFoundCode ? 404 : 409).json({
          error: { code: notFoundCode ? ApiErrorCodes.NOT_FOUND : error.code, message: error.message },
        });
        return;
      }
      this.logger.error(
        { error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
        'media request failed',
      );
      res.status(500).json({ error: { code: ApiErrorCodes.INTERNAL_SERVER_ERROR, message: 'Internal server error' } });
    }
  }
}

function statusOf(code: string): number {
  switch (code) {
    case ApiErrorCodes.NOT_FOUND:
      return 404;
    case ApiErrorCodes.WORKSPACE_UNAVAILABLE:
      return 503;
    case ApiErrorCodes.UNAUTHENTICATED:
      return 401;
    default:
      return 400;
  }
}
