export { ProjectorModule, type ProjectorModuleOptions } from './projector.module';
export { projectorProjections } from './projector-projections';

export { BusChangeNoticeSink } from './bus-change-notices';
export { BusProjectionFeed, StoreProjectionFeed, PROJECTOR_GROUP, type ProjectionFeed } from './projection-feeds';

export { rebuildExecutorOf, rebuildThreadsOf } from './rebuild-threads';
