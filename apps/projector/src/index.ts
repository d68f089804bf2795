export { ProjectorModule, type ProjectorModuleOptions } from './projector.module';
export { ProjectorAppModule } from './projector-app.module';
export { projectorSettings, type ProjectorSettings } from './projector-settings';
export { BusChangeNoticeSink } from './bus-change-notices';
export { BusProjectionFeed, StoreProjectionFeed, PROJECTOR_GROUP, type ProjectionFeed } from './projection-feeds';
export * from './projector-tokens';
