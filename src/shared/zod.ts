/**
 * zod as the shared schemas use it: every string they build (z.string, z.email, z.url) refuses characters
 * PostgreSQL text cannot hold (NUL, and UTF-16 surrogates without their pair) with one clear message, so no
 * request carrying them gets past validation on any route, and nothing reaches Meta before it is known to be
 * storable. Schema files import `* as z` from here instead of from 'zod'; tests/shared/request-limits.test.ts
 * walks every request schema of the route table and fails on a string without this check or without a maximum.
 */
import * as zod from 'zod';
import { messages, productMessages } from './messages';

export * from 'zod';

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this pattern looks for
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const unstorableTextMessage = 'Text cannot contain NUL characters or unpaired surrogates';

/** True when PostgreSQL can store the text as it is. */
export function isStorableText(value: string): boolean {
  return !unstorable.test(value);
}

/** The text with every character PostgreSQL cannot hold replaced by U+FFFD (for echoing refused input). */
export function toStorableText(value: string): string {
  return value.replace(new RegExp(unstorable.source, 'g'), '\uFFFD');
}

/** First check of every shared string; `abort` keeps later checks from adding noise about the same value. */
const storable = <T extends zod.ZodString | zod.ZodEmail | zod.ZodURL>(schema: T): T =>
  schema.refine(isStorableText, { error: unstorableTextMessage, abort: true }) as T;

export const string = ((params?: Parameters<typeof zod.string>[0]) => storable(zod.string(params))) as typeof zod.string;
export const email = ((params?: Parameters<typeof zod.email>[0]) => storable(zod.email(params))) as typeof zod.email;
export const url = ((params?: Parameters<typeof zod.url>[0]) => storable(zod.url(params))) as typeof zod.url;

const count = (n: number | bigint) => Number(n).toLocaleString('en-US');
const notAccepted = 'This value is not accepted here';

/**
 * zod's own wording ("Too small: expected string to have >=1 characters") is written for programmers; every
 * message a schema does not spell out itself is said this way instead, so a form, the canvas problems list and
 * an API answer all read as sentences. A message a schema gives (spec section 5's among them) still wins.
 */
function personMessage(issue: zod.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum) + (issue.inclusive === false ? 1 : 0);
      if (issue.origin === 'string') return min <= 1 ? messages.fieldEmpty : `Enter at least ${count(min)} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return min <= 1 ? 'Add at least one' : `Add at least ${count(min)}`;
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') {
        return issue.inclusive === false ? `Enter a number greater than ${count(issue.minimum as number)}` : `Enter a number of at least ${count(issue.minimum as number)}`;
      }
      if (issue.origin === 'date') return 'Choose a later date';
      return notAccepted;
    }
    case 'too_big': {
      const max = Number(issue.maximum) - (issue.inclusive === false ? 1 : 0);
      if (issue.origin === 'string') return `Enter at most ${count(max)} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `At most ${count(max)} are allowed`;
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') {
        return issue.inclusive === false ? `Enter a number less than ${count(issue.maximum as number)}` : `Enter a number of at most ${count(issue.maximum as number)}`;
      }
      if (issue.origin === 'date') return 'Choose an earlier date';
      return notAccepted;
    }
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null || issue.input === '') return messages.fieldEmpty;
      if (issue.expected === 'number' || issue.expected === 'bigint') return 'Enter a number';
      if (issue.expected === 'int') return 'Enter a whole number';
      if (issue.expected === 'string') return 'Enter text';
      if (issue.expected === 'boolean') return 'Choose yes or no';
      if (issue.expected === 'date') return 'Enter a date';
      return notAccepted;
    case 'invalid_format':
      if (issue.format === 'email') return messages.invalidEmail;
      if (issue.format === 'url') return productMessages.mustBeUrl;
      if (issue.format === 'datetime' || issue.format === 'date') return 'Enter a date and time';
      return 'This is not in the right form';
    case 'invalid_value':
      return issue.values.length === 1 ? `Must be ${String(issue.values[0])}` : `Choose one of: ${issue.values.map(String).join(', ')}`;
    case 'not_multiple_of':
      return `Enter a multiple of ${count(issue.divisor as number)}`;
    case 'unrecognized_keys':
      return `Not a field here: ${issue.keys.join(', ')}`;
    default:
      return notAccepted;
  }
}

zod.config({ customError: personMessage });
