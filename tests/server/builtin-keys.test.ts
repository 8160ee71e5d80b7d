/**
 * Keys users name (attribute names, a mapping's contact field, JSON paths of an HTTP answer) are read as the
 * record's own values only: a plain object also answers Object's built-ins, and "Hi {{constructor}}" once sent a
 * customer "Hi function Object() { [native code] }" (found by the bot runtime's mutation run). The walker's and
 * the executors' side is in bot-runtime-rules.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { fillAttributeVariables } from '../../src/shared/template-variables';
import { ownValue } from '../../src/shared/own-value';
import { valueAtPath } from '../../src/server/bots/http-node';
import { valuesFromMapping, type MappedContact } from '../../src/server/messaging/template-send';

const builtins = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'];

describe('keys named like Object built-ins', () => {
  it('are no values of a record, unless the record holds them', () => {
    for (const key of builtins) expect(ownValue({ a: 1 } as Record<string, number>, key), key).toBeUndefined();
    expect(ownValue({ constructor: 'Ada' }, 'constructor')).toBe('Ada');
  });

  it('fill a bot text as empty text', () => {
    expect(fillAttributeVariables('Hi {{constructor}}|{{ toString }}|{{__proto__}}|{{Name}}', { Name: 'Ada' })).toBe('Hi |||Ada');
    expect(fillAttributeVariables('Hi {{constructor}}', { constructor: 'Ada' })).toBe('Hi Ada');
  });

  it("are not found in an HTTP node's JSON answer", () => {
    const answer = { order: { id: 7, items: ['a'] } };
    for (const key of builtins) expect(valueAtPath(answer, `$.order.${key}`), key).toBeUndefined();
    expect(valueAtPath(answer, "$['constructor']")).toBeUndefined();
    expect(valueAtPath(answer, '$.order.id')).toBe(7);
    expect(valueAtPath(answer, '$.order.items[0]')).toBe('a');
    expect(valueAtPath({ constructor: 'mine' }, '$.constructor')).toBe('mine');
  });

  it("leave a template variable mapped to such a field or attribute empty (its fallback, or missing)", () => {
    const tpl = { id: 't', name: 'hello', language: 'en', mediaUrl: null, components: [{ type: 'BODY', text: 'Hi {{1}} {{2}}' }] };
    const contact: MappedContact = { name: 'Ada', phoneNumber: '+14155550100', email: null, country: null, city: null, attributes: {} };
    const names = new Map([['attr-1', 'constructor']]);
    const mapping = (source: 'field' | 'attribute', value: string, variable: string, fallback?: string) => ({ id: variable, component: 'BODY' as const, variable, source, value, fallback });
    expect(valuesFromMapping(tpl, [mapping('field', 'toString', '1', 'friend'), mapping('attribute', 'attr-1', '2', 'there')], contact, names)).toEqual({
      values: { body: ['friend', 'there'] },
    });
    expect(valuesFromMapping(tpl, [mapping('field', 'name', '1'), mapping('attribute', 'attr-1', '2')], contact, names)).toHaveProperty('missing');
    const known = { ...contact, attributes: { constructor: 'VIP' } };
    expect(valuesFromMapping(tpl, [mapping('field', 'name', '1'), mapping('attribute', 'attr-1', '2')], known, names)).toEqual({ values: { body: ['Ada', 'VIP'] } });
  });
});
