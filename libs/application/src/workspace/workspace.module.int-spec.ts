import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Database from 'better-sqlite3';
import { BLOB_STORE, FilesystemBlobStore } from '@lomo/blobs';
import { LOMO_CONFIG, loadConfig } from '@lomo/config';
import { ID_GENERATOR } from '@lomo/contracts';
import { EVENT_STORE, SqliteEventStore } from '@lomo/eventstore';
import { ARTIFACT_COMMANDS, ARTIFACT_READER, type ArtifactCommands, type ArtifactReader } from '@lomo/workspace';
import { WorkspaceModule } from './workspace.module';

describe('WorkspaceModule', () => {
  it('binds ARTIFACT_COMMANDS and ARTIFACT_READER to one service, with document text in the event-store file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lomo-workspace-module-'));
    const config = loadConfig({ LOMO_DATA_DIR: dir, NODE_ENV: 'test' });
    const store = new SqliteEventStore({ filename: config.LOMO_SQLITE_PATH });
    @Global()
    @Module({
      providers: [
        { provide: EVENT_STORE, useValue: store },
        { provide: LOMO_CONFIG, useValue: config },
        { provide: BLOB_STORE, useValue: new FilesystemBlobStore(path.join(dir, 'blobs')) },
        { provide: ID_GENERATOR, useValue: { uuid: () => randomUUID() } },
      ],
      exports: [EVENT_STORE, LOMO_CONFIG, BLOB_STORE, ID_GENERATOR],
    })
    class TestPlatformModule {}
    @Module({ imports: [TestPlatformModule, WorkspaceModule.register()] })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    try {
      const commands = app.get<ArtifactCommands>(ARTIFACT_COMMANDS);
      const reader = app.get<ArtifactReader>(ARTIFACT_READER);
      expect(reader).toBe(commands);
      const artifactId = randomUUID();
      const meta = { workspaceId: 'ws1', correlationId: 'c1', actor: { kind: 'user' as const, userId: 'u1' } };
      await commands.create(
        {
          artifactId,
          kind: 'document',
          title: 'Notes',
          by: { kind: 'person', userId: 'u1' },
          content: { type: 'document', text: 'hello' },
        },
        meta,
      );
      await commands.editDocument(
        {
          artifactId,
          baseVersion: 1,
          edits: [{ old: 'hello', new: 'hello world' }],
          by: { kind: 'person', userId: 'u1' },
        },
        meta,
      );
      expect(await reader.documentText('ws1', artifactId)).toEqual({ version: 2, text: 'hello world' });
      const db = new Database(config.LOMO_SQLITE_PATH, { readonly: true });
      // The first text, the patch, and a snapshot of v2 (its patch outgrew the 5-byte text).
      expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 3 });
      db.close();
    } finally {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
