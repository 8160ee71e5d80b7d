/**
 * Reads the request schemas of every route of the table (path, query and body) and fails on any array or string
 * without a maximum, any string that would let text PostgreSQL cannot hold through (the check of src/shared/zod.ts),
 * and any free-form JSON. A route or field added later is covered without anyone remembering to.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type RouteDef, routeNames, routes } from '../../src/shared/api/routes';
import { isStorableText } from '../../src/shared/zod';

type Def = { type: string; checks?: { _zod: { def: { check: string; fn?: unknown; maximum?: number; length?: number } } }[] } & Record<string, unknown>;
const defOf = (s: unknown) => (s as { _zod: { def: Def } })._zod.def;

function maxOf(def: Def): number | undefined {
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'max_length') return d.maximum;
    if (d.check === 'length_equals') return d.length;
  }
  return undefined;
}
const hasStorableCheck = (def: Def) => (def.checks ?? []).some((c) => c._zod.def.check === 'custom' && c._zod.def.fn === isStorableText);

/** Every problem found under `schema`, as `path: what is wrong`. */
export function unboundedParts(schema: unknown, path: string, seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const walk = (s: unknown, p: string) => unboundedParts(s, p, seen);
  switch (def.type) {
    case 'string': {
      const out: string[] = [];
      if (maxOf(def) === undefined) out.push(`${path}: string without a maximum length`);
      if (!hasStorableCheck(def)) out.push(`${path}: string without the storable-text check (build it with src/shared/zod.ts)`);
      return out;
    }
    case 'array':
      return [...(maxOf(def) === undefined ? [`${path}: array without a maximum length`] : []), ...walk(def.element, `${path}[]`)];
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([k, v]) => walk(v, `${path}.${k}`));
    case 'union':
      return (def.options as unknown[]).flatMap((o, i) => walk(o, `${path}|${i}`));
    case 'intersection':
      return [...walk(def.left, path), ...walk(def.right, path)];
    case 'record':
      return [...walk(def.keyType, `${path}{key}`), ...walk(def.valueType, `${path}{value}`)];
    case 'tuple':
      return (def.items as unknown[]).flatMap((o, i) => walk(o, `${path}[${i}]`));
    case 'pipe':
      return [...walk(def.in, path), ...walk(def.out, path)];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return walk(def.innerType, path);
    case 'lazy':
      return walk((def.getter as () => unknown)(), path);
    case 'unknown':
    case 'any':
      return [`${path}: free-form value (nothing bounds its size or text)`];
    default:
      // number, boolean, enum, literal, null, date...: bounded by their type.
      return [];
  }
}

const parts = (def: RouteDef) =>
  [
    ['params', def.params],
    ['query', def.query],
    ['body', def.body],
  ].filter(([, s]) => s) as [string, z.ZodType][];

describe.each(routeNames.map((n) => [n, routes[n] as RouteDef] as const))('%s', (_name, def) => {
  it('bounds every string and array of its request, and lets no unstorable text in', () => {
    const problems = parts(def).flatMap(([where, schema]) => unboundedParts(schema, where));
    expect(problems).toEqual([]);
  });
});

describe('the walker', () => {
  it('finds what it is meant to find', async () => {
    const plain = await import('zod');
    const shared = await import('../../src/shared/zod');
    expect(unboundedParts(plain.z.object({ a: plain.z.string().max(3) }), 'x')).toEqual([
      'x.a: string without the storable-text check (build it with src/shared/zod.ts)',
    ]);
    expect(unboundedParts(shared.object({ a: shared.array(shared.string().max(2)), b: shared.unknown() }), 'x')).toEqual([
      'x.a: array without a maximum length',
      'x.b: free-form value (nothing bounds its size or text)',
    ]);
    expect(unboundedParts(shared.object({ a: shared.string() }), 'x')).toEqual(['x.a: string without a maximum length']);
    expect(unboundedParts(shared.array(shared.string().max(2)).max(3), 'x')).toEqual([]);
  });
});
