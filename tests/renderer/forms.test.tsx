// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultAnswers, now, polyfillDom, renderApp } from './support/app';

beforeAll(polyfillDom);

describe('sign-up (spec section 5)', () => {
  it('shows each validation message inline and sends nothing', async () => {
    const { calls } = await renderApp('/signup', { user: null });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Please enter your name')).toBeInTheDocument();
    expect(screen.getByText('Please enter name of your organization')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be 8 to 50 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Your name')).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByLabelText('Work email'), 'jane@gmail.com');
    expect(await screen.findByText('Please use your official email. Public emails are not supported')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Work email'));
    await user.type(screen.getByLabelText('Work email'), 'jane@yahoo.co.uk');
    expect(await screen.findByText('Please use your official email. Public emails are not supported')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Your name'), 'Jo');
    expect(screen.getByText('Please enter your name')).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/auth/sign-up'))).toBe(false);
  });

  it('by invitation asks only for e-mail and password, prefilled from the link', async () => {
    await renderApp('/signup?email=new%40acme.com&token=tok123', { user: null });
    expect(await screen.findByRole('heading', { name: 'Join your team' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('new@acme.com');
    expect(screen.queryByLabelText('Your name')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Organization')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(await screen.findByText('Password must be 8 to 50 characters')).toBeInTheDocument();
  });

  it('a failed sign-up shows the server answer as a toast (status: message)', async () => {
    const answers = defaultAnswers();
    answers['POST /auth/sign-up'] = { status: 409, body: { statusCode: 409, message: 'An account with this email already exists', error: 'Conflict' } };
    await renderApp('/signup', { user: null, answers });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Your name'), 'Jane Doe');
    await user.type(screen.getByLabelText('Organization'), 'Acme');
    await user.type(screen.getByLabelText('Work email'), 'jane@acme.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough-1');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('409: An account with this email already exists')).toBeInTheDocument();
  });
});

describe('login', () => {
  it('checks the e-mail and asks for the password', async () => {
    await renderApp('/login', { user: null });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Please enter your password')).toBeInTheDocument();
  });
});

describe('WhatsApp account form (spec section 5)', () => {
  it('shows each required message, then the phone number rule', async () => {
    await renderApp('/settings/whatsapp');
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('button', { name: 'Connect number' }))[0]);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Connect number' }));
    for (const m of [
      'Please enter your phone number',
      'Please enter your WhatsApp Business Account ID',
      'Please enter your App ID',
      'Please enter your Phone Number ID',
      'Please enter your system user permanent token',
    ]) {
      expect(await within(dialog).findByText(m)).toBeInTheDocument();
    }
    expect(within(dialog).queryByText('Enter a valid phone number')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Phone number'), '12345');
    expect(await within(dialog).findByText('Enter a valid phone number')).toBeInTheDocument();
  });

  it('masks tokens in the list and hides admin actions from agents', async () => {
    const answers = defaultAnswers('agent');
    answers['GET /workspace/w1/whatsapp'] = {
      status: 200,
      body: {
        items: [{ id: 'a1', phoneNumber: '+16505550100', wabaAccountId: '1', appId: '2', phoneNumberId: '3', token: '••••••••cret', workspaceId: 'w1', throughputPerSecond: 80, createdAt: now }],
        nextCursor: null,
      },
    };
    await renderApp('/settings/whatsapp', { answers });
    expect(await screen.findByText('+16505550100')).toBeInTheDocument();
    expect(screen.getByText('••••cret')).toBeInTheDocument();
    expect(screen.getByText('80/s')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Connect number' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Disconnect/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();
  });
});

describe('editing a connected WhatsApp number', () => {
  const account = { id: 'a1', phoneNumber: '+16505550100', wabaAccountId: '1', appId: '2', phoneNumberId: '3', token: '••••••••cret', workspaceId: 'w1', throughputPerSecond: 80, createdAt: now };
  function withAccount() {
    const answers = defaultAnswers();
    answers['GET /workspace/w1/whatsapp'] = { status: 200, body: { items: [account], nextCursor: null } };
    answers['PATCH /whatsapp/a1'] = { status: 200, body: { ...account, throughputPerSecond: 250 } };
    return answers;
  }

  it('sends the new rate alone when the token is left blank, and refuses a rate above 1,000', async () => {
    const { calls } = await renderApp('/settings/whatsapp', { answers: withAccount() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit +16505550100' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Leave blank to keep the token ending in cret.')).toBeInTheDocument();
    const rate = within(dialog).getByLabelText('Messages per second');
    expect(rate).toHaveValue(80);
    await user.clear(rate);
    await user.type(rate, '5000');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText('throughputPerSecond must be a whole number from 1 to 1000')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    await user.clear(rate);
    await user.type(rate, '250');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.path).toBe('/whatsapp/a1');
    expect(patch?.body).toEqual({ throughputPerSecond: 250 });
  });

  it('refuses a pasted token with a space before sending anything', async () => {
    const { calls } = await renderApp('/settings/whatsapp', { answers: withAccount() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit +16505550100' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('New system user permanent token'), 'EAA two');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText('An access token is letters, digits and punctuation, without spaces')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });
});

describe('templates', () => {
  it("refuses a name that is not lower case letters, digits and underscores with the spec's message", async () => {
    await renderApp('/templates/create');
    const user = userEvent.setup();
    // Until then it says why there is no number to choose, and links to where to connect one.
    expect(await screen.findByRole('combobox', { name: 'WhatsApp number' })).toHaveAccessibleDescription(/^No number connected yet: connect one/);
    expect(screen.getByRole('link', { name: 'connect one' })).toHaveAttribute('href', '/settings/whatsapp');
    expect(screen.getByRole('link', { name: 'Back to templates' })).toHaveAttribute('href', '/templates');
    await user.click(await screen.findByLabelText('Name'));
    await user.paste('Order-Update');
    await user.click(screen.getByLabelText('Message'));
    await user.paste('Hello {{1}}');
    await user.click(screen.getByRole('button', { name: 'Submit for review' }));
    expect(await screen.findByText('Only lower case alphabets, numbers and underscore is allowed for this field')).toBeInTheDocument();
    expect(screen.getByText('Give an example value for {{1}}')).toBeInTheDocument();
    // No number connected in this workspace: the number field is refused too.
    expect(screen.getByRole('combobox', { name: 'WhatsApp number' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('fills the example values into the live preview', async () => {
    await renderApp('/templates/create');
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Message'));
    await user.paste('Hi {{1}}, order {{2}} shipped');
    await user.type(screen.getByLabelText('Example for {{1}}'), 'Maria');
    const preview = screen.getByRole('figure', { name: 'Template preview' });
    expect(within(preview).getByText('Hi Maria, order {{2}} shipped')).toBeInTheDocument();
  });

  it('filters the list by status, category and name', async () => {
    const t = (id: string, name: string, status: string, category: string) => ({
      id, name, status, category, createdAt: now, language: 'en_US', memberId: 'm1', whatsappTemplateId: null, mediaUrl: null,
      components: [{ type: 'BODY', text: `Body of ${name}` }], workspaceId: 'w1', whatsappAccountId: 'a1',
    });
    const answers = defaultAnswers();
    answers['GET /workspace/w1/whatsapp-templates'] = {
      status: 200,
      body: { items: [t('t1', 'welcome', 'APPROVED', 'MARKETING'), t('t2', 'otp_code', 'PENDING', 'AUTHENTICATION')], nextCursor: null },
    };
    await renderApp('/templates', { answers });
    expect(await screen.findByText('welcome')).toBeInTheDocument();
    expect(screen.getByText('Approved')).toBeInTheDocument();
    expect(screen.getByText('Pending')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search templates'), 'otp');
    expect(screen.queryByText('welcome')).not.toBeInTheDocument();
    expect(screen.getByText('otp_code')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search templates'), 'zzz');
    expect(screen.getByText('No templates match')).toBeInTheDocument();
  });
});

describe('failed mutations (spec section 8)', () => {
  it("toasts a 409 as 'status: message' and shows it on the attribute name", async () => {
    const answers = defaultAnswers();
    answers['POST /attribute'] = { status: 409, body: { statusCode: 409, message: 'Attribute with name plan already exists', error: 'Conflict' } };
    await renderApp('/settings/attributes', { answers });
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('button', { name: 'New attribute' }))[0]);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Name'), 'plan');
    await user.click(within(dialog).getByRole('button', { name: 'Create attribute' }));
    expect(await screen.findByText('409: Attribute with name plan already exists')).toBeInTheDocument();
    expect(within(dialog).getByText('Attribute with name plan already exists')).toBeInTheDocument();
  });

  it("toasts a 400 as 'Bad Request Exception'", async () => {
    const answers = defaultAnswers();
    answers['POST /segment'] = { status: 400, body: { statusCode: 400, message: ['filters.0.value: Too long'], error: 'Bad Request' } };
    await renderApp('/settings/segments', { answers });
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('button', { name: 'New segment' }))[0]);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save segment' }));
    expect(await within(dialog).findByText('This field cannot be empty')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Segment name'), 'Gold');
    await user.type(within(dialog).getByLabelText('Filter 1 value'), 'gold');
    await user.click(within(dialog).getByRole('button', { name: 'Save segment' }));
    expect(await screen.findByText('400: Bad Request Exception')).toBeInTheDocument();
  });

  it('shows the segment count as unavailable when the preview call is missing', async () => {
    const answers = defaultAnswers();
    delete answers['POST /workspace/w1/segments/preview'];
    await renderApp('/settings/segments', { answers });
    await userEvent.click((await screen.findAllByRole('button', { name: 'New segment' }))[0]);
    await waitFor(() => expect(screen.getByTestId('segment-count')).toHaveTextContent('Count unavailable'));
  });
});

describe('members', () => {
  it('lets admins invite with a role, and hides invitations from agents', async () => {
    const calls = await renderApp('/settings/members');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(calls.calls.some((c) => c.method === 'POST' && c.path === '/invitee')).toBe(false);
  });

  it('the Role choice says what the role may do and is sent with the invitation', async () => {
    const answers = defaultAnswers();
    answers['POST /invitee'] = { status: 201, body: { id: 'i1', email: 'grace@acme.com', role: 'admin', used: false, createdAt: now, workspaceId: 'w1' } };
    const { calls } = await renderApp('/settings/members', { answers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog');
    const role = within(dialog).getByRole('combobox', { name: 'Role' });
    expect(role).toHaveAccessibleDescription('Works the inbox and the audience.');
    await user.click(role);
    await user.click(await screen.findByRole('option', { name: 'Admin' }));
    expect(role).toHaveAccessibleDescription('Can change settings, templates, campaigns and bots.');
    await user.type(within(dialog).getByLabelText('Email'), 'grace@acme.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path === '/invitee')?.body).toEqual({ email: 'grace@acme.com', role: 'admin', workspaceId: 'w1' }));
  });

  it('shows agents no invite button and no open invitations', async () => {
    const { calls } = await renderApp('/settings/members', { answers: defaultAnswers('agent') });
    expect(await screen.findByRole('table', { name: 'Members' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Invite member' })).not.toBeInTheDocument();
    expect(screen.queryByText('Open invitations')).not.toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/workspace/w1/invitees'))).toBe(false);
  });
});

describe('dialogs opened from a menu or a page button', () => {
  it('creates a workspace from the workspace menu and opens its settings', async () => {
    const answers = defaultAnswers();
    answers['POST /workspace'] = { status: 201, body: { id: 'w2', createdAt: now, name: 'Night Shift', memberIds: ['m1'] } };
    const { calls, history } = await renderApp('/live-chat', { answers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /switch workspace$/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'New workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'New workspace' });
    await user.click(within(dialog).getByRole('button', { name: 'Create workspace' }));
    expect(await within(dialog).findByText('Workspace name must be 3 to 50 characters')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Workspace name'), 'Night Shift');
    await user.click(within(dialog).getByRole('button', { name: 'Create workspace' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST' && c.path === '/workspace')?.body).toEqual({ name: 'Night Shift' });
    await waitFor(() => expect(history.location.pathname).toBe('/settings'));
  });

  it('a cancelled WhatsApp number form starts empty the next time, and focus goes back to its button', async () => {
    await renderApp('/settings/whatsapp');
    const user = userEvent.setup();
    const opener = (await screen.findAllByRole('button', { name: 'Connect number' }))[0];
    await user.click(opener);
    let dialog = await screen.findByRole('dialog', { name: 'Connect a WhatsApp number' });
    await user.type(within(dialog).getByLabelText('App ID'), '1234');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);

    await user.click(opener);
    dialog = await screen.findByRole('dialog', { name: 'Connect a WhatsApp number' });
    expect(within(dialog).getByLabelText('App ID')).toHaveValue('');
  });
});
