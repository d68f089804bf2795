export * from './artifact-command-service';
export { parseInput } from './artifact-inputs';
