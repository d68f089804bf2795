import { eraseProjectionType, type AnyProjection } from '@lomo/read-models';
import { accountLedgerProjection, accountsProjection } from './accounts.projection';
import { generationJobsProjection } from './generation-jobs.projection';

/** The generation read models, as the projector runs them (embedded and distributed alike). */
export const generationProjections: readonly AnyProjection[] = [
  eraseProjectionType(generationJobsProjection),
  eraseProjectionType(accountsProjection),
  eraseProjectionType(accountLedgerProjection),
];
