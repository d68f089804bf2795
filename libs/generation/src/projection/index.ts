export * from './generation-documents';
export * from './generation-read-model';
export { generationJobsProjection } from './generation-jobs.projection';
export { accountsProjection, accountLedgerProjection } from './accounts.projection';
export { generationProjections } from './generation-projections';
export { DocumentStoreGenerationReadModel, toJobView } from './document-store-generation-read-model';
