export { ProjectorModule, type ProjectorModuleOptions } from './projector.module';

export { BusChangeNoticeSink } from './bus-change-notices';
export { BusProjectionFeed, StoreProjectionFeed, PROJECTOR_GROUP, type ProjectionFeed } from './projection-feeds';

export { rebuildExecutorOf, rebuildThreadsOf } from './rebuild-threads';
