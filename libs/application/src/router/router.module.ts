import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EVENT_BUS, type EventBus } from '@lomo/bus';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { RouteUserMessageHandler } from './route-user-message.handler';
import { RouterService } from './router.service';
import { WakeUpPublisher } from './wake-up-publisher';

/**
 * The pass-through router (issue 4 item 8). Needs the platform's EVENT_STORE, EVENT_BUS, LOGGER
 * and LOMO_CONFIG (PlatformModule provides them globally).
 */
@Module({
  imports: [CqrsModule],
  providers: [
    RouteUserMessageHandler,
    RouterService,
    {
      provide: WakeUpPublisher,
      useFactory: (bus: EventBus, config: LomoConfig) => new WakeUpPublisher(bus, config.LOMO_BUS_PARTITIONS),
      inject: [EVENT_BUS, LOMO_CONFIG],
    },
  ],
  exports: [RouterService],
})
export class RouterModule {}
