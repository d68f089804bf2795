export * from './errors';
export * from './access/operator-access';
export * from './audit/record-operator-action';
export * from './inspect';
export * from './transfer';
export * from './repair';
export * from './replay';
export * from './fork';
