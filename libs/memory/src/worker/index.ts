export * from './memory-runner';
export * from './evidence-texts';
export * from './exclude-in-tasks';
export { runForgetting } from './run-forgetting';
