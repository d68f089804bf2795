import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AnswerClarificationHandler } from './answer-clarification.handler';
import { ReceiveUserMessageHandler } from './receive-user-message.handler';

@Module({ imports: [CqrsModule], providers: [ReceiveUserMessageHandler, AnswerClarificationHandler] })
export class MessagesModule {}
