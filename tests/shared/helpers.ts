import { expect } from 'vitest';
import type { z } from 'zod';

/** The issue messages of a failed parse; an empty list when the value is accepted. */
export function issuesOf(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

/** Issue messages whose path starts with `key`. */
export function issuesAt(schema: z.ZodType, value: unknown, ...path: (string | number)[]): string[] {
  const r = schema.safeParse(value);
  if (r.success) return [];
  return r.error.issues
    .filter((i) => path.every((p, k) => i.path[k] === p))
    .map((i) => i.message);
}

export function expectOk(schema: z.ZodType, value: unknown): void {
  const r = schema.safeParse(value);
  expect(r.success ? [] : r.error.issues).toEqual([]);
}

export function expectFail(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  expect(r.success).toBe(false);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

/** A failure whose messages are exactly `messages` (each issue carries the spec's message). */
export function expectMessages(schema: z.ZodType, value: unknown, messages: string[]): void {
  expect(issuesOf(schema, value)).toEqual(messages);
}

export const str = (n: number, ch = 'a'): string => ch.repeat(n);
