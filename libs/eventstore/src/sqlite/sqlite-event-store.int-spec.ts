import { describeEventStoreContract } from '../testing/event-store.contract';
import { createSqliteHarness } from '../testing/sqlite-harness';

describeEventStoreContract('SQLite (WAL, synchronous=FULL)', () => createSqliteHarness(), { rawInsert: true });
