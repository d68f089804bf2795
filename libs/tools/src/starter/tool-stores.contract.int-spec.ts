import {
  describeExportJobStoreContract,
  describeNotesStoreContract,
  sqliteExportJobsHarness,
  sqliteNotesHarness,
} from '../testing';

describeNotesStoreContract('SQLite (tools.sqlite)', sqliteNotesHarness);
describeExportJobStoreContract('SQLite (tools.sqlite)', sqliteExportJobsHarness);
