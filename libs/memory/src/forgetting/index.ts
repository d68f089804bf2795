export * from './forgetting-plan';
export { planForgetting } from './plan-forgetting';
export { toApplyForgetting } from './to-apply-forgetting';
