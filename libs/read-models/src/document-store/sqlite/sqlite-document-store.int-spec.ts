import { describeDocumentStoreContract } from '../testing/document-store.contract';
import { createSqliteDocumentStoreHarness } from '../testing/sqlite-harness';

describeDocumentStoreContract('SQLite (WAL, synchronous=NORMAL)', () => createSqliteDocumentStoreHarness());
