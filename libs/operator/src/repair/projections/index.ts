export { projectionsStatus, type ProjectionStatusRow } from './projections-status';
export {
  rebuildProjections,
  type RebuildProgressReport,
  type RebuildProjectionsOptions,
  type RebuildSummary,
} from './rebuild-projections';
export { ProjectionRebuildRefusedError } from './rebuild-refused';
export type { ProjectionSources } from './projection-sources';
export { numericPosition, positionsBehind } from '../../positions';
