import { describe, it, expect } from 'vitest';
import {
  CreateWorkspaceBody,
  InviteSignUpBody,
  SignUpBody,
  WorkspaceName,
  isPublicEmail,
  limits,
  messages,
} from '../../src/shared';
import { expectFail, expectMessages, expectOk, issuesAt, str } from './helpers';

const valid = {
  email: 'jane@acme.io',
  password: 'secret123',
  name: 'Jane Doe',
  organizationName: 'Acme Ltd',
};

describe('SignUpBody (spec 5: sign-up)', () => {
  it('accepts a valid sign-up', () => {
    expectOk(SignUpBody, valid);
    expect(SignUpBody.parse(valid)).toEqual(valid);
  });

  describe('email', () => {
    it.each(['not-an-email', 'jane@', '@acme.io', 'jane acme.io', 'jane@acme', ''])(
      'refuses %j with the invalid e-mail message',
      (email) => {
        expectMessages(SignUpBody, { ...valid, email }, [messages.invalidEmail]);
      },
    );

    it('refuses a missing email with the invalid e-mail message', () => {
      const { email: _omit, ...rest } = valid;
      expectMessages(SignUpBody, rest, [messages.invalidEmail]);
    });

    it.each([
      'jane@gmail.com',
      'jane@hotmail.co.uk',
      'jane@yahoo.fr',
      'jane@GMAIL.COM',
      'jane@Hotmail.com',
      'jane@gmailx.com',
      'jane@yahoo-inc.com',
    ])('refuses the public provider address %s', (email) => {
      expectMessages(SignUpBody, { ...valid, email }, [messages.publicEmail]);
    });

    it.each(['jane@mygmail.com', 'jane@notyahoo.fr', 'jane@mail.hotmail-free.org', 'gmail@acme.io'])(
      'accepts %s (domain does not start with a public provider)',
      (email) => {
        expectOk(SignUpBody, { ...valid, email });
      },
    );

    it('isPublicEmail looks at the domain only', () => {
      expect(isPublicEmail('gmail@acme.io')).toBe(false);
      expect(isPublicEmail('acme@gmail.com')).toBe(true);
    });

    it('uses the exact spec messages', () => {
      expect(messages.invalidEmail).toBe('Please enter a valid email address');
      expect(messages.publicEmail).toBe('Please use your official email. Public emails are not supported');
    });
  });

  describe('password 8 to 50 characters', () => {
    it('accepts 8 and 50 characters', () => {
      expectOk(SignUpBody, { ...valid, password: str(8, 'p') });
      expectOk(SignUpBody, { ...valid, password: str(50, 'p') });
    });
    it('refuses 7 and 51 characters', () => {
      expect(issuesAt(SignUpBody, { ...valid, password: str(7, 'p') }, 'password')).toHaveLength(1);
      expect(issuesAt(SignUpBody, { ...valid, password: str(51, 'p') }, 'password')).toHaveLength(1);
    });
    it('refuses a missing password', () => {
      const { password: _omit, ...rest } = valid;
      expect(issuesAt(SignUpBody, rest, 'password')).toHaveLength(1);
    });
  });

  describe('name 3 to 50 characters', () => {
    it('accepts 3 and 50 characters', () => {
      expectOk(SignUpBody, { ...valid, name: str(3, 'n') });
      expectOk(SignUpBody, { ...valid, name: str(50, 'n') });
    });
    it.each([
      ['2 characters', str(2, 'n')],
      ['51 characters', str(51, 'n')],
      ['empty', ''],
      ['blank', '     '],
    ])('refuses %s with the name message', (_label, name) => {
      expectMessages(SignUpBody, { ...valid, name }, [messages.name]);
    });
    it('refuses a missing name with the name message', () => {
      const { name: _omit, ...rest } = valid;
      expectMessages(SignUpBody, rest, [messages.name]);
    });
    it('uses the exact spec message', () => {
      expect(messages.name).toBe('Please enter your name');
    });
  });

  describe('organizationName 3 to 50 characters', () => {
    it('accepts 3 and 50 characters', () => {
      expectOk(SignUpBody, { ...valid, organizationName: str(3, 'o') });
      expectOk(SignUpBody, { ...valid, organizationName: str(50, 'o') });
    });
    it.each([
      ['2 characters', str(2, 'o')],
      ['51 characters', str(51, 'o')],
      ['empty', ''],
    ])('refuses %s with the organization message', (_label, organizationName) => {
      expectMessages(SignUpBody, { ...valid, organizationName }, [messages.organizationName]);
    });
    it('refuses a missing organizationName with the organization message', () => {
      const { organizationName: _omit, ...rest } = valid;
      expectMessages(SignUpBody, rest, [messages.organizationName]);
    });
    it('uses the exact spec message', () => {
      expect(messages.organizationName).toBe('Please enter name of your organization');
    });
  });

  it('refuses an unknown key', () => {
    const msgs = expectFail(SignUpBody, { ...valid, role: 'admin' });
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatch(/role/);
  });
});

describe('InviteSignUpBody (spec 5: joining by invite needs only email and password)', () => {
  it('accepts email and password only', () => {
    expectOk(InviteSignUpBody, { email: 'joe@acme.io', password: 'secret123' });
  });
  it('does not require name nor organizationName', () => {
    const r = InviteSignUpBody.safeParse({ email: 'joe@acme.io', password: 'secret123' });
    expect(r.success && Object.keys(r.data).sort()).toEqual(['email', 'password']);
  });
  it('refuses extra keys (name, organizationName)', () => {
    expectFail(InviteSignUpBody, { email: 'joe@acme.io', password: 'secret123', name: 'Joe Bloggs' });
    expectFail(InviteSignUpBody, { email: 'joe@acme.io', password: 'secret123', organizationName: 'Acme' });
  });
  it('still validates the e-mail and the password length', () => {
    expectMessages(InviteSignUpBody, { email: 'nope', password: 'secret123' }, [messages.invalidEmail]);
    expectFail(InviteSignUpBody, { email: 'joe@acme.io', password: str(7) });
    expectFail(InviteSignUpBody, { email: 'joe@acme.io', password: str(51) });
    expectOk(InviteSignUpBody, { email: 'joe@acme.io', password: str(50) });
  });
  it('refuses a body without password', () => {
    expectFail(InviteSignUpBody, { email: 'joe@acme.io' });
  });
});

describe('CreateWorkspaceBody (spec 5/9: workspace name 3 to 50)', () => {
  it('accepts 3 and 50 characters', () => {
    expectOk(CreateWorkspaceBody, { name: str(3, 'w') });
    expectOk(CreateWorkspaceBody, { name: str(50, 'w') });
  });
  it('refuses 2 and 51 characters', () => {
    expectFail(CreateWorkspaceBody, { name: str(2, 'w') });
    expectFail(CreateWorkspaceBody, { name: str(51, 'w') });
  });
  it('refuses a missing name and unknown keys', () => {
    expectFail(CreateWorkspaceBody, {});
    expectFail(CreateWorkspaceBody, { name: 'Acme', extra: true });
  });
  it('WorkspaceName follows limits.workspaceName', () => {
    expect(limits.workspaceName).toEqual({ min: 3, max: 50 });
    expectOk(WorkspaceName, str(limits.workspaceName.max));
    expectFail(WorkspaceName, str(limits.workspaceName.max + 1));
  });
});
