import { describe, it, expect } from 'vitest';
import {
  ErrorBody,
  defaultLiveChatTab,
  delayUnits,
  limits,
  liveChatTabs,
  messages,
  toastDefaults,
  toastText,
} from '../../src/shared';

describe('toastText (spec 8)', () => {
  it('a 400 is always "400: Bad Request Exception", whatever the body', () => {
    expect(toastText(400, { statusCode: 400, message: 'name is required', error: 'Bad Request' })).toBe('400: Bad Request Exception');
    expect(toastText(400, { statusCode: 400, message: ['a', 'b'], error: 'Bad Request' })).toBe('400: Bad Request Exception');
    expect(toastText(400, undefined)).toBe('400: Bad Request Exception');
    expect(toastText(400, 'garbage')).toBe('400: Bad Request Exception');
  });

  it('a 409 with a message shows "409: <message>"', () => {
    expect(toastText(409, { statusCode: 409, message: 'Attribute already exists', error: 'Conflict' })).toBe(
      '409: Attribute already exists',
    );
  });

  it('joins a list of messages', () => {
    expect(toastText(422, { statusCode: 422, message: ['first problem', 'second problem'], error: 'Unprocessable Entity' })).toBe(
      '422: first problem, second problem',
    );
  });

  it('falls back to the status name when the body is not an error body', () => {
    expect(toastText(404, undefined)).toBe('404: Not Found');
    expect(toastText(500, { oops: true })).toBe('500: Internal Server Error');
    expect(toastText(418, null)).toBe('418: Request failed');
  });

  it('ErrorBody accepts a string or a list of strings as message', () => {
    expect(ErrorBody.safeParse({ statusCode: 409, message: 'x', error: 'Conflict' }).success).toBe(true);
    expect(ErrorBody.safeParse({ statusCode: 409, message: ['x'], error: 'Conflict' }).success).toBe(true);
    expect(ErrorBody.safeParse({ statusCode: 409, message: 3, error: 'Conflict' }).success).toBe(false);
  });
});

describe('limits (spec 9)', () => {
  it('name limits: user name, organization, workspace 3 to 50; password 8 to 50', () => {
    expect(limits.userName).toEqual({ min: 3, max: 50 });
    expect(limits.organizationName).toEqual({ min: 3, max: 50 });
    expect(limits.workspaceName).toEqual({ min: 3, max: 50 });
    expect(limits.password).toEqual({ min: 8, max: 50 });
  });

  it('template name max 512', () => {
    expect(limits.templateName).toEqual({ min: 1, max: 512 });
  });

  it('bot texts', () => {
    expect(limits.bot).toEqual({
      headerMax: 60,
      footerMax: 60,
      bodyMax: 1024,
      emailSubjectMax: 60,
      emailBodyMax: 1024,
      listButtonName: { min: 1, max: 20 },
      listItemLabel: { min: 1, max: 24 },
      replyButtonLabel: { min: 1, max: 20 },
      flowCta: { min: 1, max: 20 },
    });
  });

  it('delay units hours or days', () => {
    expect([...delayUnits]).toEqual(['hours', 'days']);
  });

  it('live-chat tabs and default tab closed', () => {
    expect([...liveChatTabs].sort()).toEqual(['assigned', 'closed', 'me', 'open']);
    expect(defaultLiveChatTab).toBe('closed');
  });

  it('toasts: bottom-right, at most 3 visible, 4000 ms', () => {
    expect(toastDefaults).toEqual({ position: 'bottom-right', visibleToasts: 3, duration: 4000 });
  });
});

describe('messages (spec 5, word for word)', () => {
  it('match the spec exactly', () => {
    expect(messages).toEqual({
      invalidEmail: 'Please enter a valid email address',
      publicEmail: 'Please use your official email. Public emails are not supported',
      name: 'Please enter your name',
      organizationName: 'Please enter name of your organization',
      templateName: 'Only lower case alphabets, numbers and underscore is allowed for this field',
      phoneRequired: 'Please enter your phone number',
      phoneInvalid: 'Enter a valid phone number',
      wabaAccountIdRequired: 'Please enter your WhatsApp Business Account ID',
      appIdRequired: 'Please enter your App ID',
      phoneNumberIdRequired: 'Please enter your Phone Number ID',
      tokenRequired: 'Please enter your system user permanent token',
      importNeedsPhone: 'At least one column must be mapped to phoneNumber',
      selectSegment: 'Select audience segment!',
      fieldEmpty: 'This field cannot be empty',
    });
  });
});
