import { Query, Resolver } from '@nestjs/graphql';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Me } from '../types/me.type';

@Resolver(() => Me)
export class MeResolver {
  @Query(() => Me, { description: 'The caller.' })
  me(@CurrentCaller() caller: Caller): Me {
    return { ...caller };
  }
}
