import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Caller } from '@lomo/auth';
import { InMemoryBlobStore } from '@lomo/blobs/testing';
import type { Actor } from '@lomo/contracts';
import { SqliteEventStore, type AppendResult } from '@lomo/eventstore';
import { makeTempDir } from '@lomo/eventstore/testing';

export const T0 = Date.parse('2026-12-01T10:00:00.000Z');

export interface WriteAs {
  workspaceId?: string;
  actor?: Actor;
  generation?: number;
}

/**
 * A real SQLite event store in a temp dir with a clock the test moves (every append one second
 * later than the one before, so times are distinct), and blobs in memory: the inspections' sources.
 */
export class InspectionWorld {
  private now = T0;
  readonly blobs = new InMemoryBlobStore();

  private constructor(
    readonly events: SqliteEventStore,
    private readonly temp: { remove: () => void },
  ) {}

  static open(): InspectionWorld {
    const temp = makeTempDir('operator-inspect');
    let world: InspectionWorld | undefined = undefined;
    const store = new SqliteEventStore({
      filename: join(temp.dir, 'events.sqlite'),
      pollIntervalMs: 10,
      now: () => new Date(world?.now ?? T0),
    });
    world = new InspectionWorld(store, temp);
    return world;
  }

  get sources() {
    return { events: this.events, blobs: this.blobs };
  }

  /** The time the next append will carry. */
  get clock(): string {
    return new Date(this.now).toISOString();
  }

  async append(streamId: string, type: string, data: unknown, as: WriteAs = {}): Promise<AppendResult> {
    this.now += 1_000;
    return this.events.append(
      streamId,
      [
        {
          eventId: randomUUID(),
          type,
          data,
          metadata: {
            correlationId: 'inspect-test',
            causationId: null,
            workspaceId: as.workspaceId ?? 'ws1',
            actor: as.actor ?? { kind: 'system', component: 'test' },
            ...(as.generation !== undefined ? { generation: as.generation } : {}),
          },
        },
      ],
      'any',
    );
  }

  async close(): Promise<void> {
    await this.events.close();
    this.temp.remove();
  }
}

export const callerOf = (kind: Caller['kind'], workspaceId = 'ws1', userId = 'u1'): Caller => ({
  tokenId: `token-${kind}-${workspaceId}-${userId}`,
  tokenName: `${kind} token`,
  workspaceId,
  userId,
  kind,
});
