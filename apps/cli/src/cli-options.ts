import { BadOperatorInputError } from '@lomo/operator';

/** A commander option parser for a count (`--limit`, `--lag-limit`): a bad one is bad input (exit 2). */
export const wholeNumber = (name: string) => (value: string) => {
  if (!/^[0-9]{1,9}$/.test(value)) throw new BadOperatorInputError(`${name} must be a whole number, got "${value}"`);
  return Number(value);
};
