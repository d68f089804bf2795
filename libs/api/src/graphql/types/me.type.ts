import { Field, ID, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'The caller: the user and workspace its API token acts for.' })
export class Me {
  @Field(() => ID)
  userId!: string;

  @Field(() => ID)
  workspaceId!: string;

  @Field(() => ID)
  tokenId!: string;

  @Field(() => String)
  tokenName!: string;
}
