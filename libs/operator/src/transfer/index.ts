// The transfer part of @lomo/operator (`lomo export` / `lomo import`); re-exported by the barrel.
export * from './transfer.types';
export {
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  MANIFEST_FILE,
  EVENTS_FILE,
  BLOBS_DIR,
  exportManifest,
  type ExportManifest,
  type ExportTombstone,
  type TombstoneReason,
} from './export-format';
export { blobReferencesOf, forgottenBlobsOf } from './blob-references';
export { exportWorkspace, type ExportOptions } from './export-workspace';
export { importWorkspace, ImportInterruptedError, type ImportOptions } from './import-workspace';
export { verifyExport, type ImportCheck, type VerifiedExport } from './verify-export';
