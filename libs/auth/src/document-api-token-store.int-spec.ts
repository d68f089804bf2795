import { createSqliteDocumentStoreHarness } from '@lomo/read-models/testing';
import { describeApiTokenStoreContract, documentTokenStoreHarness } from '@lomo/auth/testing';

// FerretDB runs the same suite: test/distributed/api-token-store.ferretdb.dist-spec.ts.
describeApiTokenStoreContract('document store on SQLite', async () =>
  documentTokenStoreHarness(await createSqliteDocumentStoreHarness()),
);
