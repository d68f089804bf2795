import type Database from 'better-sqlite3';
import type { DeadLetterError, ReceivedMessage } from '../event-bus.port';
import { guarded } from './sqlite-errors';

export interface GroupMember {
  memberId: string;
  topics: string[];
}

export interface PartitionOwner {
  topic: string;
  partition: number;
  memberId: string;
}

/**
 * Group membership and partition ownership in the log file. A member heartbeats; one silent
 * for longer than the session timeout is expired with its partitions. A partition has at most
 * one owner, and a commit is refused unless the committer still owns the partition (the
 * fencing that keeps a paused, expired instance from moving the group's offset).
 */
export class GroupCoordinator {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      heartbeat: db.prepare(
        `INSERT INTO bus_group_members (group_id, member_id, topics, heartbeat_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (group_id, member_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at, topics = excluded.topics`,
      ),
      expiredMembers: db.prepare<[string, number], { member_id: string }>(
        'SELECT member_id FROM bus_group_members WHERE group_id = ? AND heartbeat_at < ?',
      ),
      deleteMember: db.prepare('DELETE FROM bus_group_members WHERE group_id = ? AND member_id = ?'),
      deleteOwnerships: db.prepare('DELETE FROM bus_partition_owners WHERE group_id = ? AND member_id = ?'),
      members: db.prepare<[string], { member_id: string; topics: string }>(
        'SELECT member_id, topics FROM bus_group_members WHERE group_id = ? ORDER BY member_id',
      ),
      owners: db.prepare<[string], { topic: string; partition: number; member_id: string }>(
        'SELECT topic, partition, member_id FROM bus_partition_owners WHERE group_id = ?',
      ),
      owner: db.prepare<[string, string, number], { member_id: string }>(
        'SELECT member_id FROM bus_partition_owners WHERE group_id = ? AND topic = ? AND partition = ?',
      ),
      claim: db.prepare(
        'INSERT INTO bus_partition_owners (group_id, topic, partition, member_id) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      release: db.prepare(
        'DELETE FROM bus_partition_owners WHERE group_id = ? AND topic = ? AND partition = ? AND member_id = ?',
      ),
      committed: db.prepare<[string, string, number], { next_offset: number }>(
        'SELECT next_offset FROM bus_committed_offsets WHERE group_id = ? AND topic = ? AND partition = ?',
      ),
      commit: db.prepare(
        `INSERT INTO bus_committed_offsets (group_id, topic, partition, next_offset, committed_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (group_id, topic, partition) DO UPDATE SET next_offset = excluded.next_offset, committed_at = excluded.committed_at`,
      ),
      deadLetter: db.prepare(
        `INSERT INTO bus_dead_letters (group_id, topic, partition, msg_offset, msg_key, value, headers, accepted_at,
           error_code, error_message, attempts, dead_lettered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
  }

  /**
   * Records the member as alive, expires members silent since `expireBefore` (releasing their
   * partitions) and returns the live members and current owners, all in one transaction.
   */
  heartbeat(groupId: string, memberId: string, topics: readonly string[], now: number, expireBefore: number) {
    return guarded('heartbeat', () =>
      this.db
        .transaction(() => {
          this.statements.heartbeat.run(groupId, memberId, JSON.stringify(topics), now);
          const expired = this.statements.expiredMembers.all(groupId, expireBefore).map((r) => r.member_id);
          for (const id of expired) this.removeMember(groupId, id);
          const members: GroupMember[] = this.statements.members
            .all(groupId)
            .map((r) => ({ memberId: r.member_id, topics: JSON.parse(r.topics) as string[] }));
          const owners: PartitionOwner[] = this.statements.owners
            .all(groupId)
            .map((r) => ({ topic: r.topic, partition: r.partition, memberId: r.member_id }));
          return { members, owners, expired };
        })
        .immediate(),
    );
  }

  leave(groupId: string, memberId: string): void {
    guarded('leave', () => this.db.transaction(() => this.removeMember(groupId, memberId)).immediate());
  }

  /**
   * Takes a free partition. Returns the offset to start from (committed, or chosen by
   * `initialOffset` and committed at once so a restart resumes there), or undefined when
   * another member still owns it.
   */
  claim(
    groupId: string,
    memberId: string,
    topic: string,
    partition: number,
    initialOffset: () => number,
  ): number | undefined {
    return guarded('claim', () =>
      this.db
        .transaction(() => {
          const owned = this.statements.claim.run(groupId, topic, partition, memberId).changes === 1;
          if (!owned && this.statements.owner.get(groupId, topic, partition)?.member_id !== memberId) return undefined;
          const committed = this.statements.committed.get(groupId, topic, partition)?.next_offset;
          if (committed !== undefined) return committed;
          const start = initialOffset();
          this.statements.commit.run(groupId, topic, partition, start, Date.now());
          return start;
        })
        .immediate(),
    );
  }

  release(groupId: string, memberId: string, topic: string, partition: number): void {
    guarded('release', () => this.statements.release.run(groupId, topic, partition, memberId));
  }

  /** Moves the group's offset; false when the member no longer owns the partition. */
  commit(groupId: string, memberId: string, topic: string, partition: number, nextOffset: number): boolean {
    return guarded('commit', () =>
      this.db
        .transaction(() => {
          if (!this.owns(groupId, memberId, topic, partition)) return false;
          this.statements.commit.run(groupId, topic, partition, nextOffset, Date.now());
          return true;
        })
        .immediate(),
    );
  }

  /** Records the dead letter and commits past it atomically; false when fenced off. */
  deadLetter(
    groupId: string,
    memberId: string,
    message: ReceivedMessage,
    error: DeadLetterError,
    attempts: number,
  ): boolean {
    return guarded('deadLetter', () =>
      this.db
        .transaction(() => {
          if (!this.owns(groupId, memberId, message.topic, message.partition)) return false;
          this.statements.deadLetter.run(
            groupId,
            message.topic,
            message.partition,
            message.offset,
            message.key,
            JSON.stringify(message.value),
            JSON.stringify(message.headers),
            message.timestamp,
            error.code,
            error.message,
            attempts,
            new Date().toISOString(),
          );
          this.statements.commit.run(groupId, message.topic, message.partition, message.offset + 1, Date.now());
          return true;
        })
        .immediate(),
    );
  }

  private owns(groupId: string, memberId: string, topic: string, partition: number): boolean {
    return this.statements.owner.get(groupId, topic, partition)?.member_id === memberId;
  }

  private removeMember(groupId: string, memberId: string): void {
    this.statements.deleteOwnerships.run(groupId, memberId);
    this.statements.deleteMember.run(groupId, memberId);
  }
}
