import type { Type } from '@nestjs/common';
import { Field, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'Relay page information.' })
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => Boolean, { description: 'True when the page was asked for with `after`.' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true })
  startCursor!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Pass as `after` for the next page; on the last page it still marks where later items will appear.',
  })
  endCursor!: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface ConnectionShape<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
}

/** `<Name>Connection` and `<Name>Edge` object types for a node type. */
export function Connection<T>(name: string, node: Type<T>): Type<ConnectionShape<T>> {
  @ObjectType(`${name}Edge`)
  class EdgeType {
    @Field(() => String)
    cursor!: string;

    @Field(() => node)
    node!: T;
  }

  @ObjectType(`${name}Connection`)
  class ConnectionType {
    @Field(() => [EdgeType])
    edges!: EdgeType[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;
  }

  return ConnectionType;
}
