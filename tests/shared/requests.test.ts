import { describe, it, expect } from 'vitest';
import {
  CreateImportBody,
  CreateSegmentBody,
  CreateTemplateBody,
  CreateWhatsappBody,
  SegmentFilter,
  SegmentOperator,
  TemplateName,
  isValidMobileNumber,
  limits,
  messages,
} from '../../src/shared';
import { expectFail, expectMessages, expectOk, issuesAt, str } from './helpers';

describe('Template name (spec 5/9: 1 to 512, lower case, digits, underscore)', () => {
  const template = {
    name: 'order_update_2',
    language: 'en_US',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Your order has shipped' }],
    whatsappAccountId: 'wa-1',
    workspaceId: 'ws-1',
  };

  it('accepts lower-case letters, digits and underscore', () => {
    for (const name of ['hello', 'order_update_2', '_', '0', 'a1_b2']) expectOk(TemplateName, name);
    expectOk(CreateTemplateBody, template);
  });

  it.each(['Hello', 'a-b', 'a b', '', 'héllo', 'a.b', 'ORDER'])('refuses %j with the spec message', (name) => {
    const msgs = issuesAt(CreateTemplateBody, { ...template, name }, 'name');
    expect(msgs.length).toBeGreaterThan(0);
    expect(new Set(msgs)).toEqual(new Set([messages.templateName]));
    expect(issuesAt(TemplateName, name)).toContain(messages.templateName);
  });

  it('accepts 512 characters and refuses 513', () => {
    expect(limits.templateName.max).toBe(512);
    expectOk(TemplateName, str(512));
    expectOk(CreateTemplateBody, { ...template, name: str(512) });
    expectFail(TemplateName, str(513));
    expect(issuesAt(CreateTemplateBody, { ...template, name: str(513) }, 'name')).toHaveLength(1);
  });

  it('uses the exact spec message', () => {
    expect(messages.templateName).toBe('Only lower case alphabets, numbers and underscore is allowed for this field');
  });
});

describe('CreateWhatsappBody (spec 5: WhatsApp account form)', () => {
  const account = {
    phoneNumber: '+14155552671',
    wabaAccountId: '102290129340398',
    appId: '1234567890',
    phoneNumberId: '106540352242922',
    token: 'EAAG-system-user-token',
    workspaceId: 'ws-1',
  };

  it.each(['+14155552671', '+447911123456', '447911123456'])('accepts the mobile number %s', (phoneNumber) => {
    expectOk(CreateWhatsappBody, { ...account, phoneNumber });
  });

  it('refuses a missing phone number with the required message', () => {
    const { phoneNumber: _omit, ...rest } = account;
    expectMessages(CreateWhatsappBody, rest, [messages.phoneRequired]);
  });

  it.each(['', '   '])('refuses the empty phone number %j with the required message only', (phoneNumber) => {
    expectMessages(CreateWhatsappBody, { ...account, phoneNumber }, [messages.phoneRequired]);
  });

  it.each(['12345', '+1415555', 'not a phone', '+442079460000'])(
    'refuses %j (not a valid mobile number) with the invalid message',
    (phoneNumber) => {
      expectMessages(CreateWhatsappBody, { ...account, phoneNumber }, [messages.phoneInvalid]);
    },
  );

  it('isValidMobileNumber accepts a mobile number and refuses a landline', () => {
    expect(isValidMobileNumber('+447911123456')).toBe(true);
    expect(isValidMobileNumber('+442079460000')).toBe(false);
  });

  const required: [keyof typeof account, string, string][] = [
    ['wabaAccountId', messages.wabaAccountIdRequired, 'Please enter your WhatsApp Business Account ID'],
    ['appId', messages.appIdRequired, 'Please enter your App ID'],
    ['phoneNumberId', messages.phoneNumberIdRequired, 'Please enter your Phone Number ID'],
    ['token', messages.tokenRequired, 'Please enter your system user permanent token'],
  ];

  it.each(required)('a missing %s gives its exact message', (field, message, specText) => {
    expect(message).toBe(specText);
    const rest: Record<string, unknown> = { ...account };
    delete rest[field];
    expectMessages(CreateWhatsappBody, rest, [specText]);
  });

  it.each(required)('an empty %s gives its exact message', (field, _message, specText) => {
    expectMessages(CreateWhatsappBody, { ...account, [field]: '' }, [specText]);
    expectMessages(CreateWhatsappBody, { ...account, [field]: '  ' }, [specText]);
  });

  it('uses the exact spec phone messages', () => {
    expect(messages.phoneRequired).toBe('Please enter your phone number');
    expect(messages.phoneInvalid).toBe('Enter a valid phone number');
  });

  it('gives every message at once for an empty form', () => {
    expect(issuesAt(CreateWhatsappBody, {}, 'phoneNumber')).toEqual([messages.phoneRequired]);
    expect(issuesAt(CreateWhatsappBody, {}, 'wabaAccountId')).toEqual([messages.wabaAccountIdRequired]);
    expect(issuesAt(CreateWhatsappBody, {}, 'appId')).toEqual([messages.appIdRequired]);
    expect(issuesAt(CreateWhatsappBody, {}, 'phoneNumberId')).toEqual([messages.phoneNumberIdRequired]);
    expect(issuesAt(CreateWhatsappBody, {}, 'token')).toEqual([messages.tokenRequired]);
  });

  it('refuses unknown keys', () => {
    expectFail(CreateWhatsappBody, { ...account, verifyToken: 'x' });
  });
});

describe('CreateImportBody (spec 5: at least one column mapped to phoneNumber)', () => {
  const body = {
    fileName: 'contacts.csv',
    fileUrl: 'https://files.example.com/contacts.csv',
    workspaceId: 'ws-1',
    columnAttributeMap: [
      { columnName: 'Phone', attribute: 'phoneNumber' },
      { columnName: 'Name', attribute: 'name' },
      { columnName: 'Ignored' },
    ],
  };

  it('accepts a mapping with a phoneNumber column', () => {
    expectOk(CreateImportBody, body);
  });

  it.each([
    ['no column mapped to phoneNumber', [{ columnName: 'Name', attribute: 'name' }, { columnName: 'Phone' }]],
    ['every attribute null', [{ columnName: 'Phone', attribute: null }]],
    ['an empty mapping', []],
  ])('refuses %s with the spec message', (_label, columnAttributeMap) => {
    expectMessages(CreateImportBody, { ...body, columnAttributeMap }, [messages.importNeedsPhone]);
  });

  it('uses the exact spec message', () => {
    expect(messages.importNeedsPhone).toBe('At least one column must be mapped to phoneNumber');
  });
});

describe('SegmentFilter (spec 3: operators and conjuction)', () => {
  const filter = { column: 'city', value: 'Paris', operator: 'IS', conjuction: 'AND' };
  const operators = ['IS', 'IS_NOT', 'STARTS_WITH', 'END_WITH', 'CONTAINS', 'DOES_NOT_CONTAINS', 'IS_EMPTY', 'IS_NOT_EMPTY'];

  it('has exactly the eight operators of the spec', () => {
    expect([...SegmentOperator.options].sort()).toEqual([...operators].sort());
  });

  it.each(operators)('accepts the operator %s', (operator) => {
    expectOk(SegmentFilter, { ...filter, operator });
  });

  it.each(['EQUALS', 'ENDS_WITH', 'DOES_NOT_CONTAIN', 'is', 'GREATER_THAN', ''])('refuses the operator %j', (operator) => {
    expectFail(SegmentFilter, { ...filter, operator });
  });

  it.each(['AND', 'OR'])('accepts conjuction %s', (conjuction) => {
    expectOk(SegmentFilter, { ...filter, conjuction });
  });

  it.each(['XOR', 'and', ''])('refuses conjuction %j', (conjuction) => {
    expectFail(SegmentFilter, { ...filter, conjuction });
  });

  it('refuses the correctly spelled `conjunction` key (strict)', () => {
    const { conjuction: _omit, ...rest } = filter;
    expectFail(SegmentFilter, { ...rest, conjunction: 'AND' });
  });

  it('segments carry a list of filters', () => {
    expectOk(CreateSegmentBody, { name: 'Parisians', filters: [filter, { ...filter, operator: 'IS_EMPTY', conjuction: 'OR' }], workspaceId: 'ws-1' });
    expectFail(CreateSegmentBody, { name: 'Parisians', filters: [{ ...filter, operator: 'LIKE' }], workspaceId: 'ws-1' });
  });
});
