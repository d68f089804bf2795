import type Database from 'better-sqlite3';
import { guarded } from '../in-process/sqlite-errors';
import type { RelayLease, RelayLeaseStore } from './relay-lease.port';
import { openLeaseDatabase, type RelayLeaseRow, type SqliteFileOptions } from './relay-lease-schema';

/** Nobody: what a released lease names as its holder. */
const NO_HOLDER = '';

/**
 * Relay leases in a SQLite file every instance opens (the event-store file in distributed mode
 * on a shared SQLite store; the bus-log file in embedded mode, where SqliteFencedBusPublisher
 * checks the epoch inside the same file's append transaction). Each call is one BEGIN IMMEDIATE
 * transaction, so two processes can never both take the lease.
 */
export class SqliteRelayLeaseStore implements RelayLeaseStore {
  private readonly statements;

  private constructor(private readonly db: Database.Database) {
    this.statements = {
      get: db.prepare<[string], RelayLeaseRow>('SELECT * FROM relay_leases WHERE relay_id = ?'),
      insert: db.prepare<[string, string, number, number]>(
        'INSERT INTO relay_leases (relay_id, holder, epoch, expires_at, changed_at) VALUES (?, ?, 1, ?, ?)',
      ),
      takeOver: db.prepare<[string, number, number, string]>(
        'UPDATE relay_leases SET holder = ?, epoch = epoch + 1, expires_at = ?, changed_at = ? WHERE relay_id = ?',
      ),
      extend: db.prepare<[number, string, string, number]>(
        'UPDATE relay_leases SET expires_at = ? WHERE relay_id = ? AND holder = ? AND epoch = ?',
      ),
      release: db.prepare<[string, string, string, number]>(
        'UPDATE relay_leases SET holder = ?, epoch = epoch + 1, expires_at = 0 WHERE relay_id = ? AND holder = ? AND epoch = ?',
      ),
    };
  }

  static open(options: SqliteFileOptions): SqliteRelayLeaseStore {
    return new SqliteRelayLeaseStore(openLeaseDatabase(options));
  }

  async tryAcquire(relayId: string, holder: string, now: Date, ttlMs: number): Promise<RelayLease | undefined> {
    const at = now.getTime();
    const expiresAt = at + ttlMs;
    return guarded('lease acquire', () =>
      this.db
        .transaction((): RelayLease | undefined => {
          const row = this.statements.get.get(relayId);
          if (!row) {
            this.statements.insert.run(relayId, holder, expiresAt, at);
          } else if (row.holder === holder) {
            // Still ours (possibly expired, but then nobody took it): same epoch, longer life.
            this.statements.extend.run(expiresAt, relayId, holder, row.epoch);
          } else if (row.expires_at <= at) {
            this.statements.takeOver.run(holder, expiresAt, at, relayId);
          } else {
            return undefined;
          }
          return toLease(this.statements.get.get(relayId));
        })
        .immediate(),
    );
  }

  async renew(relayId: string, holder: string, epoch: number, now: Date, ttlMs: number): Promise<boolean> {
    return guarded(
      'lease renew',
      () => this.statements.extend.run(now.getTime() + ttlMs, relayId, holder, epoch).changes === 1,
    );
  }

  async release(relayId: string, holder: string, epoch: number): Promise<void> {
    // The epoch moves on release too: a write still carrying the old one must be refused.
    guarded('lease release', () => this.statements.release.run(NO_HOLDER, relayId, holder, epoch));
  }

  async current(relayId: string): Promise<RelayLease | undefined> {
    const row = guarded('lease read', () => this.statements.get.get(relayId));
    return row ? toLease(row) : undefined;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function toLease(row: RelayLeaseRow | undefined): RelayLease | undefined {
  return row && { relayId: row.relay_id, holder: row.holder, epoch: row.epoch, expiresAt: row.expires_at };
}
