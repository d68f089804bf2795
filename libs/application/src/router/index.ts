export { RouterModule, type RouterModuleOptions } from './router.module';
export { RouterService, ROUTER_GROUP, MAIN_EVENTS_TOPIC, isRetriableRoutingError } from './router.service';
export { RouteUserMessage, type RouteUserMessageResult } from './route-user-message.command';
export { RouteUserMessageHandler } from './route-user-message.handler';
export { ROUTING_MODEL, ROUTING_SETTINGS, ROUTING_TIMEOUT_MS } from './routing-tokens';
