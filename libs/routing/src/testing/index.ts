export { FakeArtifactBindings } from './fake-artifact-bindings';
export { FakeRoutingCandidates } from './fake-routing-candidates';
