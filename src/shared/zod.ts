/**
 * zod as the shared schemas use it: every string they build (z.string, z.email, z.url) refuses characters
 * PostgreSQL text cannot hold (NUL, and UTF-16 surrogates without their pair) with one clear message, so no
 * request carrying them gets past validation on any route, and nothing reaches Meta before it is known to be
 * storable. Schema files import `* as z` from here instead of from 'zod'; tests/shared/request-limits.test.ts
 * walks every request schema of the route table and fails on a string without this check or without a maximum.
 */
import * as zod from 'zod';

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
