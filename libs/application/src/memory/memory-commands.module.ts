import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import {
  CancelMemoryForgettingHandler,
  ConfirmMemoryForgettingHandler,
  CorrectPersonMemoryHandler,
  RequestMemoryForgettingHandler,
} from './memory-command-handlers';
import { memoryCommandStreamsProvider } from './memory-command-streams';

/**
 * The person's commands on their own memory as CQRS commands: correct a memory, ask to forget,
 * confirm or cancel. Needs the platform's EVENT_STORE, ID_GENERATOR, BLOB_STORE and CLOCK. The
 * forgetting itself is the cascade runner's, once a forgetting is confirmed.
 */
@Module({
  imports: [CqrsModule],
  providers: [
    memoryCommandStreamsProvider,
    CorrectPersonMemoryHandler,
    RequestMemoryForgettingHandler,
    ConfirmMemoryForgettingHandler,
    CancelMemoryForgettingHandler,
  ],
})
export class MemoryCommandsModule {}
