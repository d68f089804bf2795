import { FERRETDB_PROFILE, MONGODB_PROFILE } from '@lomo/read-models';
import { describeDocumentStoreContract, createMongoDocumentStoreHarness, mongoUrl } from '@lomo/read-models/testing';

// FerretDB's SQLite backend filters in Go over whole collection files: slower than the embedded
// adapter, so each test gets room without changing what it checks.
jest.setTimeout(60_000);

// The server profile is detected: on FerretDB the adapter takes its claim-based path.
describeDocumentStoreContract(`MongoDB wire protocol at ${mongoUrl()} (detected profile)`, () =>
  createMongoDocumentStoreHarness(),
);

// The MongoDB compare-and-set path (a filter on the version), run here too so it is exercised;
// racing writers are left out since FerretDB 1.24 does not make filtered updates atomic. Bulk
// writes stay chunked: unchunked, FerretDB's connection pool deadlocks and the server hangs.
describeDocumentStoreContract(
  `MongoDB wire protocol at ${mongoUrl()} (MongoDB compare-and-set path forced)`,
  () =>
    createMongoDocumentStoreHarness({
      serverProfile: { ...MONGODB_PROFILE, maxUpdatesPerCommand: FERRETDB_PROFILE.maxUpdatesPerCommand },
    }),
  { racingWriters: false },
);
