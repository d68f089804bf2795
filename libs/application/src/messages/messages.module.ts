import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ReceiveUserMessageHandler } from './receive-user-message.handler';

@Module({ imports: [CqrsModule], providers: [ReceiveUserMessageHandler] })
export class MessagesModule {}
