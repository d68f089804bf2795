// The GraphQL API: queries over the read models, mutations through the command handlers,
// subscriptions over graphql-ws, limits, consistency tokens and the explorer.
export { ApiModule, type ApiModuleOptions } from './api.module';
export { ApiReadSideModule } from './read-side/api-read-side.module';
export * from './api-di-tokens';
export { apiSettings, type ApiSettings, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from './api-settings';
export { renderGraphqlSchema, SCHEMA_FILE } from './graphql/render-schema';
