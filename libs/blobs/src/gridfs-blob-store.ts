import { isMongoDuplicateKey, isMongoUnavailable } from '@lomo/resilience';
import { createHash, randomUUID } from 'node:crypto';
import { GridFSBucket, type Collection, type Db } from 'mongodb';
import { ValidationError } from '@lomo/contracts';
import type { BlobRef, BlobStore } from './blob-store.port';
import { BlobCorruptedError, BlobStoreUnavailableError } from './blob-errors';

const hashPattern = /^[0-9a-f]{64}$/;

/** One document per stored address: the claim that makes an upload the blob at that hash. */
interface AddressRow {
  _id: string;
  fileId: string;
  bytes: number;
  contentType: string;
}

export interface GridFsBlobStoreOptions {
  db: Db;
  /** Prefix of the GridFS collections (`<bucket>.files`, `<bucket>.chunks`) and the address index. */
  bucketName?: string;
}

export const DEFAULT_BLOB_BUCKET = 'lomo_blobs';

/**
 * Blobs in GridFS, shared by every replica, on MongoDB and FerretDB alike.
 *
 * Content addressing without transactions or atomic filtered updates (FerretDB 1.24, see
 * libs/read-models/src/document-store/mongodb/server-profile.ts): each put uploads under a fresh
 * file id, then claims the address by inserting `{_id: hash}` into `<bucket>.addresses`. A unique
 * `_id` insert is atomic on both servers, so one upload wins; a loser deletes its own upload. A
 * crash between upload and claim leaves an unreferenced file, never a half-written blob at an
 * address (what the filesystem store gets from its rename).
 *
 * Forgetting erases the content first, then the address: a crash in between leaves an address
 * whose file is gone, which reads as absent (and the next delete removes the address).
 * Every read is hashed and compared with its address.
 */
export class GridFsBlobStore implements BlobStore {
  private readonly bucket: GridFSBucket;
  private readonly addresses: Collection<AddressRow>;

  constructor(options: GridFsBlobStoreOptions) {
    const name = options.bucketName ?? DEFAULT_BLOB_BUCKET;
    this.bucket = new GridFSBucket(options.db, { bucketName: name });
    this.addresses = options.db.collection<AddressRow>(`${name}.addresses`);
  }

  async put(content: Buffer | string, contentType: string): Promise<BlobRef> {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const hash = createHash('sha256').update(bytes).digest('hex');
    const ref = { hash, bytes: bytes.length, contentType };
    return guard('put', async () => {
      if (await this.storedFile(hash)) return ref;
      const fileId = randomUUID();
      await this.upload(fileId, hash, bytes, contentType);
      try {
        await this.addresses.insertOne({ _id: hash, fileId, bytes: bytes.length, contentType });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        // Another writer claimed the address with the same bytes (or a forgotten blob's address
        // is still being cleaned up): keep theirs, drop ours, and repair a dangling address.
        await this.deleteFile(fileId);
        if (!(await this.storedFile(hash))) return this.repairAndRetry(hash, bytes, contentType, ref);
      }
      return ref;
    });
  }

  async get(hash: string): Promise<Buffer | undefined> {
    assertHash(hash);
    return guard('get', async () => {
      const row = await this.addresses.findOne({ _id: hash });
      if (row === null) return undefined;
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of this.bucket.openDownloadStream(row.fileId as never)) chunks.push(chunk as Buffer);
      } catch (error) {
        if (isFileNotFound(error)) return undefined;
        if (errorShape(error).name === 'MongoGridFSChunkError') throw new BlobCorruptedError(hash, undefined);
        throw error;
      }
      const content = Buffer.concat(chunks);
      const actual = createHash('sha256').update(content).digest('hex');
      if (actual !== hash) throw new BlobCorruptedError(hash, actual);
      return content;
    });
  }

  async has(hash: string): Promise<boolean> {
    assertHash(hash);
    return guard('has', async () => (await this.storedFile(hash)) !== undefined);
  }

  async delete(hash: string): Promise<boolean> {
    assertHash(hash);
    return guard('delete', async () => {
      const row = await this.addresses.findOne({ _id: hash });
      if (row === null) return false;
      const hadFile = await this.deleteFile(row.fileId);
      const removed = await this.addresses.deleteOne({ _id: hash, fileId: row.fileId });
      return hadFile && removed.deletedCount === 1;
    });
  }

  /** The address's row when its file exists too (a dangling address reads as absent). */
  private async storedFile(hash: string): Promise<AddressRow | undefined> {
    const row = await this.addresses.findOne({ _id: hash });
    if (row === null) return undefined;
    const file = await this.bucket.find({ _id: row.fileId as never }, { limit: 1 }).next();
    return file === null ? undefined : row;
  }

  private async repairAndRetry(hash: string, bytes: Buffer, contentType: string, ref: BlobRef): Promise<BlobRef> {
    const dangling = await this.addresses.findOne({ _id: hash });
    if (dangling !== null) await this.addresses.deleteOne({ _id: hash, fileId: dangling.fileId });
    const fileId = randomUUID();
    await this.upload(fileId, hash, bytes, contentType);
    try {
      await this.addresses.insertOne({ _id: hash, fileId, bytes: bytes.length, contentType });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      await this.deleteFile(fileId);
    }
    return ref;
  }

  private upload(fileId: string, hash: string, bytes: Buffer, contentType: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const stream = this.bucket.openUploadStreamWithId(fileId as never, hash, { metadata: { contentType, hash } });
      stream.once('error', reject);
      stream.once('finish', () => resolve());
      stream.end(bytes);
    });
  }

  /** True when there was a file to delete. */
  private async deleteFile(fileId: string): Promise<boolean> {
    try {
      await this.bucket.delete(fileId as never);
      return true;
    } catch (error) {
      if (isFileNotFound(error)) return false;
      throw error;
    }
  }
}

function assertHash(hash: string): void {
  if (!hashPattern.test(hash))
    throw new ValidationError('blob hash must be 64 hex characters', [
      { path: 'hash', message: 'not a sha256 hex digest' },
    ]);
}

const errorShape = (error: unknown) =>
  typeof error === 'object' && error !== null ? (error as { name?: unknown; code?: unknown; message?: unknown }) : {};

const isDuplicateKey = isMongoDuplicateKey;

// The driver has no class of its own for it: a MongoRuntimeError saying "FileNotFound: ..." on
// download, "File not found for id ..." on delete (node_modules/mongodb/lib/gridfs).
const isFileNotFound = (error: unknown) => {
  const { name, message } = errorShape(error);
  return name === 'MongoRuntimeError' && typeof message === 'string' && /file ?not ?found/i.test(message);
};

async function guard<T>(operation: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isMongoUnavailable(error)) {
      const { name } = errorShape(error);
      throw new BlobStoreUnavailableError(`GridFS blob store unavailable during ${operation} (${String(name)})`, error);
    }
    throw error;
  }
}
