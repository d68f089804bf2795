import { ToolRegistrationError } from '../tool-errors';
import { CALL_AUTHORITIES, SIDE_EFFECT_CLASSES, TOOL_DOMAINS, type ToolDefinition } from '../tool.port';

/** Same rule as the `toolName` of the event contracts, so every registered name can be recorded. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_.]{0,63}$/;

/** Checks what TypeScript cannot: definitions may be assembled at run time (config, plugins). */
export function validateDefinition(definition: ToolDefinition): void {
  const name = String(definition.name);
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new ToolRegistrationError(name, `the name must match ${TOOL_NAME_PATTERN}`);
  }
  if (typeof definition.description !== 'string' || definition.description.trim() === '') {
    throw new ToolRegistrationError(name, 'the description must not be blank (the model chooses tools by it)');
  }
  if (!TOOL_DOMAINS.includes(definition.domain)) {
    throw new ToolRegistrationError(name, `unknown domain "${String(definition.domain)}"`);
  }
  if (!SIDE_EFFECT_CLASSES.includes(definition.sideEffect)) {
    throw new ToolRegistrationError(name, `unknown side-effect class "${String(definition.sideEffect)}"`);
  }
  if (definition.authorizedBy !== undefined && !CALL_AUTHORITIES.includes(definition.authorizedBy)) {
    throw new ToolRegistrationError(name, `unknown authority "${String(definition.authorizedBy)}"`);
  }
  if (definition.authorizedBy === 'ledger' && definition.sideEffect !== 'paid') {
    // Only money can be gated by a ledger; nothing undoes an irreversible effect a ledger let through.
    throw new ToolRegistrationError(name, `authorizedBy 'ledger' is only for paid tools, not ${definition.sideEffect}`);
  }
  if (typeof definition.idempotent !== 'boolean') {
    throw new ToolRegistrationError(name, 'it must declare whether it is idempotent');
  }
  if (typeof definition.run !== 'function') {
    throw new ToolRegistrationError(name, 'it has no run function');
  }
}
