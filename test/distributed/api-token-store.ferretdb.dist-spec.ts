import { createMongoDocumentStoreHarness, mongoUrl } from '@lomo/read-models/testing';
import { describeApiTokenStoreContract, documentTokenStoreHarness } from '@lomo/auth/testing';

// FerretDB filters over whole collection files: slower than SQLite, same checks.
jest.setTimeout(60_000);

// The same contract as libs/auth/src/document-api-token-store.int-spec.ts (SQLite), on the
// MongoDB wire protocol (the server profile is detected, as in production).
describeApiTokenStoreContract(`document store at ${mongoUrl()}`, async () =>
  documentTokenStoreHarness(await createMongoDocumentStoreHarness()),
);
