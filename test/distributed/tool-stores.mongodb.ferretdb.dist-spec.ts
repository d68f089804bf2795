import {
  describeExportJobStoreContract,
  describeNotesStoreContract,
  mongoExportJobsHarness,
  mongoNotesHarness,
} from '@lomo/tools/testing';

// FerretDB's SQLite backend is slower than a local SQLite file; the checks stay the same.
jest.setTimeout(60_000);

// The distributed mode's tool state (LOMO_TOOLS_STORE=mongodb) against the contracts the SQLite stores pass.
describeNotesStoreContract('MongoDB wire protocol (FerretDB here)', mongoNotesHarness);
describeExportJobStoreContract('MongoDB wire protocol (FerretDB here)', mongoExportJobsHarness);
