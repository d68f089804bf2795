import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryBlobStore } from '@lomo/blobs/testing';
import { loadConfig } from '@lomo/config';
import type { EventBus } from '@lomo/bus';
import type { EventStore } from '@lomo/eventstore';
import type { GenerationRequests } from '@lomo/generation';
import { silentLogger } from '@lomo/observability';
import { TOOL_DOMAINS, type ToolRegistry } from '@lomo/tools';
import type { ArtifactCommands, ArtifactReader, WorkspaceReadModel } from '@lomo/workspace';
import { createStarterToolSet, starterToolSpecs } from './starter-tools.provider';

/** What the model is offered (name, description, JSON schema) and what the runtime plans with; not the run. */
const specs = (registry: ToolRegistry) => {
  const offered = new Map(registry.specs(TOOL_DOMAINS).map((s) => [s.name, s]));
  return registry.list().map((d) => ({
    offered: offered.get(d.name),
    domain: d.domain,
    sideEffect: d.sideEffect,
    idempotent: d.idempotent,
    async: d.async,
    authorizedBy: d.authorizedBy,
    progress: d.progress,
    returnsPage: d.returnsPage,
  }));
};

describe('starterToolSpecs: the executor’s tool definitions with no service behind them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tool-specs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([true, false])('equal the executor’s own, in order (generation bound: %s)', async (generation) => {
    const config = loadConfig({ LOMO_DATA_DIR: dir });
    const executor = createStarterToolSet(
      config,
      {} as EventStore,
      {} as EventBus,
      new InMemoryBlobStore(),
      { now: () => new Date() },
      silentLogger,
      undefined,
      { commands: {} as ArtifactCommands, reader: {} as ArtifactReader, readModel: {} as WorkspaceReadModel },
      generation ? ({} as GenerationRequests) : undefined,
    );
    try {
      const offline = starterToolSpecs({ generation });
      expect(specs(offline)).toEqual(specs(executor.registry));
      expect(offline.has('video.generate')).toBe(generation);
    } finally {
      await executor.close();
    }
  });

  it('refuse to run: their services are not bound', async () => {
    const tool = starterToolSpecs({ generation: false }).get('notes.list');
    await expect(tool?.run({ limit: 1 } as never, {} as never)).rejects.toMatchObject({ code: 'TOOL_SPEC_ONLY' });
  });
});
