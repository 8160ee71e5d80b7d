// The one set of template-variable rules the server (stored text of a sent template), the template sender, the
// template editor's preview and the message bubbles all use.
import { describe, expect, it } from 'vitest';
import { attributeVariables, fillAttributeVariables, fillTemplateVariables, positionalVariables, templateVariables } from '../../src/shared/template-variables';

describe('templateVariables', () => {
  it('lists positional and named variables once, in order of first appearance', () => {
    expect(templateVariables('Hi {{1}}, your order {{2}} ships; thanks {{1}}')).toEqual(['1', '2']);
    expect(templateVariables('Hello {{first_name}}, code {{ code }}')).toEqual(['first_name', 'code']);
    expect(templateVariables('{{2}} before {{1}}')).toEqual(['2', '1']);
  });

  it('finds none in plain text, empty or missing text, or malformed braces', () => {
    expect(templateVariables('No variables here')).toEqual([]);
    expect(templateVariables('')).toEqual([]);
    expect(templateVariables(undefined)).toEqual([]);
    expect(templateVariables(null)).toEqual([]);
    expect(templateVariables('{1} {{}} {{first name}} {{1')).toEqual([]);
  });

  it('gives the same answer on repeated calls (no regex state carried over)', () => {
    const text = 'A {{1}} B {{2}}';
    expect(templateVariables(text)).toEqual(templateVariables(text));
    expect(fillTemplateVariables(text, ['x', 'y'])).toBe(fillTemplateVariables(text, ['x', 'y']));
  });
});

describe('positionalVariables', () => {
  it('keeps the numbered variables, ascending, ignoring named ones', () => {
    expect(positionalVariables('{{3}} {{1}} {{name}} {{1}} {{2}}')).toEqual([1, 2, 3]);
    expect(positionalVariables('Hi {{name}}')).toEqual([]);
  });
});

describe('fillTemplateVariables', () => {
  it('fills from a list in the order the variables appear (a send’s parameters.body)', () => {
    expect(fillTemplateVariables('Hi {{1}}, your order is {{2}}.', ['Grace', 'on its way'])).toBe('Hi Grace, your order is on its way.');
    expect(fillTemplateVariables('Hello {{first_name}}, {{code}} is your code', ['Ada', '123456'])).toBe('Hello Ada, 123456 is your code');
  });

  it('fills every occurrence of a repeated variable with its one value', () => {
    expect(fillTemplateVariables('{{1}} and {{1}} again, then {{2}}', ['A', 'B'])).toBe('A and A again, then B');
  });

  it('fills from a map by variable name, tolerating spaces inside the braces', () => {
    expect(fillTemplateVariables('Order {{ 1 }} for {{name}}', { '1': '#42', name: 'Grace' })).toBe('Order #42 for Grace');
  });

  it('leaves a variable without a value, or with a blank one, as written', () => {
    expect(fillTemplateVariables('Hi {{1}}, order {{2}}', ['Grace'])).toBe('Hi Grace, order {{2}}');
    expect(fillTemplateVariables('Hi {{1}}, order {{2}}', { '1': '  ', '2': '' })).toBe('Hi {{1}}, order {{2}}');
    expect(fillTemplateVariables('Hi {{name}}', {})).toBe('Hi {{name}}');
  });

  it('keeps values as given, including characters special in replacement strings', () => {
    expect(fillTemplateVariables('Total: {{1}}', ['$& 10 $1'])).toBe('Total: $& 10 $1');
  });
});

// Bots: `{{attribute}}` names a workspace attribute by its name, which may hold spaces and signs.
describe('attributeVariables', () => {
  it('reads attribute names with spaces and signs, trimmed, once each, in order', () => {
    expect(attributeVariables('Hi {{First name}}, is {{ e-mail address }} right? {{First name}}')).toEqual(['First name', 'e-mail address']);
    expect(attributeVariables('Order {{Order #}} for {{choice}}')).toEqual(['Order #', 'choice']);
  });

  it('finds none in blank braces, single braces or missing text', () => {
    expect(attributeVariables('{{ }} {First name} {{open')).toEqual([]);
    expect(attributeVariables(undefined)).toEqual([]);
  });

  it('fills by attribute name; a name without a value becomes empty, blank braces stay', () => {
    expect(fillAttributeVariables('Hello {{ First name }}, your code is {{code}}{{missing}} {{ }}', { 'First name': 'Ada', code: '$1 42' })).toBe('Hello Ada, your code is $1 42 {{ }}');
  });

  it('leaves WhatsApp template variables to their own rule', () => {
    expect(templateVariables('Hi {{First name}}')).toEqual([]);
  });
});
