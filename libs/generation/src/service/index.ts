export * from './generation-requests.port';
export * from './generation-timings';
export * from './generation-orders';
export * from './generation-service';
export * from './generation-worker';
export * from './plan-job';
export * from './plan-wake';
export * from './job-view';
export * from './upstream-index';
export { DecidedStreams } from './decided-streams';
export {
  orderHash,
  paymentAuthority,
  cardMatchesJob,
  type PaymentAuthority,
  type CardDecision,
} from './payment-authority';
