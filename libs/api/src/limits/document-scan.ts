import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';
import { ApiErrorCodes } from '@lomo/contracts';
import type { ShapeRefusal } from './operation-limits';

export interface DocumentLimits {
  maxTokens: number;
  maxAliases: number;
  maxDirectives: number;
}

export interface DocumentScan {
  /** Tokens read; stops at `maxTokens + 1`, so a huge document costs no more than a big one. */
  tokens: number;
  /** `name:` inside a selection set (not inside arguments, variables or values), as written. */
  aliases: number;
  /** `@` signs, as written. */
  directives: number;
}

/**
 * One lexer pass over a GraphQL document before it is parsed or validated: a document of
 * 100 000 tokens, or of 1 000 aliases or 200 directives (whose validation alone would answer
 * with hundreds of errors), is refused for what it is at the cost of reading it once. Counts
 * are of the text as written; fragments are expanded later by `measureQuery`, which applies
 * the same alias and directive limits to the operation as it would run. A lexing error ends
 * the scan: the parser reports it as GRAPHQL_PARSE_FAILED.
 */
export function scanDocument(source: string, maxTokens: number): DocumentScan {
  const lexer = new Lexer(new Source(source));
  const scan = { tokens: 0, aliases: 0, directives: 0 };
  // Open brackets: an alias is a name followed by `:` directly inside a selection set.
  const open: string[] = [];
  let parens = 0;
  try {
    let token = lexer.advance();
    while (token.kind !== TokenKind.EOF && scan.tokens <= maxTokens) {
      scan.tokens += 1;
      switch (token.kind) {
        case TokenKind.BRACE_L:
        case TokenKind.BRACKET_L:
          open.push(token.kind);
          break;
        case TokenKind.PAREN_L:
          open.push(token.kind);
          parens += 1;
          break;
        case TokenKind.PAREN_R:
          if (open.pop() === TokenKind.PAREN_L) parens -= 1;
          break;
        case TokenKind.BRACE_R:
        case TokenKind.BRACKET_R:
          if (open.pop() === TokenKind.PAREN_L) parens -= 1;
          break;
        case TokenKind.AT:
          scan.directives += 1;
          break;
        case TokenKind.NAME:
          if (parens === 0 && open.at(-1) === TokenKind.BRACE_L && lexer.lookahead().kind === TokenKind.COLON) {
            scan.aliases += 1;
          }
          break;
        default:
          break;
      }
      token = lexer.advance();
    }
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
  }
  return scan;
}

/** The document-level refusal, if any: tokens first (the others are not fully counted past it). */
export function documentRefusal(scan: DocumentScan, limits: DocumentLimits): ShapeRefusal | undefined {
  if (scan.tokens > limits.maxTokens) {
    return {
      code: ApiErrorCodes.TOO_MANY_TOKENS,
      message: `Document has more than ${limits.maxTokens} tokens; it was not parsed`,
      details: { maxTokens: limits.maxTokens },
    };
  }
  if (scan.aliases > limits.maxAliases) {
    return {
      code: ApiErrorCodes.TOO_MANY_ALIASES,
      message: `Document has ${scan.aliases} aliased fields; at most ${limits.maxAliases} are allowed`,
      details: { aliases: scan.aliases, maxAliases: limits.maxAliases },
    };
  }
  if (scan.directives > limits.maxDirectives) {
    return {
      code: ApiErrorCodes.TOO_MANY_DIRECTIVES,
      message: `Document has ${scan.directives} directives; at most ${limits.maxDirectives} are allowed`,
      details: { directives: scan.directives, maxDirectives: limits.maxDirectives },
    };
  }
  return undefined;
}
