export * from './approve-quote';
export {
  checkApprovalCheckpoint,
  resolveApprovalCheckpoint,
  type ApprovalCheckpoint,
} from './resolve-approval-checkpoint';
export * from './account-settings';
