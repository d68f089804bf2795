export { RouterModule } from './router.module';
export { RouterService, ROUTER_GROUP, MAIN_EVENTS_TOPIC, isRetriableRoutingError } from './router.service';
export { RouteUserMessage, type RouteUserMessageResult } from './route-user-message.command';
export { decideRouting, taskIdFor } from './routing-decision';
