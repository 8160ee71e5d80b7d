import { adminApi, connectNumber, createAdmin, expect, newSandboxNumber, signInUi, stack, test, uniqueEmail, verifyAddress, pick } from './support/fixtures';

test('connect the sandbox WhatsApp number, with the spec messages on the form', async ({ page }) => {
  const acct = await newSandboxNumber();
  const admin = await createAdmin();
  await signInUi(page, admin, '/settings/whatsapp');
  await expect(page.getByText('No WhatsApp number connected')).toBeVisible();

  await page.getByRole('button', { name: 'Connect number' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Connect a WhatsApp number' });
  await dialog.getByRole('button', { name: 'Connect number' }).click();
  for (const text of [
    'Please enter your phone number',
    'Please enter your WhatsApp Business Account ID',
    'Please enter your App ID',
    'Please enter your Phone Number ID',
    'Please enter your system user permanent token',
  ]) {
    await expect(dialog.getByText(text, { exact: true })).toBeVisible();
  }
  await dialog.getByLabel('Phone number', { exact: true }).fill('12');
  await expect(dialog.getByText('Enter a valid phone number', { exact: true })).toBeVisible();

  await dialog.getByLabel('Phone number', { exact: true }).fill(acct.phoneNumber);
  await dialog.getByLabel('WhatsApp Business Account ID').fill(acct.wabaAccountId);
  await dialog.getByLabel('Phone Number ID').fill(acct.phoneNumberId);
  await dialog.getByLabel('App ID').fill(acct.appId);
  await dialog.getByLabel('System user permanent token').fill(acct.token);
  await dialog.getByRole('button', { name: 'Connect number' }).click();
  await expect(dialog).toBeHidden();

  const table = page.getByRole('table', { name: 'WhatsApp accounts' });
  await expect(table.getByText(acct.phoneNumber)).toBeVisible();
  // The token is never shown whole.
  await expect(table.getByText(acct.token)).toHaveCount(0);
  await expect(table.getByText(acct.token.slice(-4))).toBeVisible();

  // The send rate is a setting of the number: saved on the server and shown after the list reloads.
  await expect(table.getByText('80/s')).toBeVisible();
  await table.getByRole('button', { name: `Edit ${acct.phoneNumber}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${acct.phoneNumber}` });
  await edit.getByLabel('Messages per second').fill('250');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await page.reload();
  await expect(page.getByRole('table', { name: 'WhatsApp accounts' }).getByText('250/s')).toBeVisible();
});

test('create a template with variables and see it in the list', async ({ page }) => {
  const admin = await createAdmin();
  await connectNumber(admin);

  await signInUi(page, admin, '/templates/create');
  await page.getByLabel('Name').fill('Order Update');
  await page.getByLabel('Message').fill('Hi {{1}}, your order {{2}} is on its way.');
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByText('Only lower case alphabets, numbers and underscore is allowed for this field')).toBeVisible();
  await expect(page.getByText('Give an example value for {{1}}')).toBeVisible();

  const name = `order_update_${Date.now().toString(36)}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Example for {{1}}').fill('Maria');
  await page.getByLabel('Example for {{2}}').fill('#4821');
  await page.getByLabel('Footer').fill('Thanks for shopping with us');
  await page.getByRole('button', { name: 'Quick reply' }).click();
  await page.getByLabel('Button 1 text').fill('Track order');
  const preview = page.getByRole('figure', { name: 'Template preview' });
  await expect(preview.getByText('Hi Maria, your order #4821 is on its way.')).toBeVisible();
  await expect(preview.getByText('Track order')).toBeVisible();

  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page).toHaveURL(/\/templates$/);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await expect(row.getByText(/Pending|Approved/)).toBeVisible();
});

test('build a segment with a live count', async ({ page }) => {
  const admin = await createAdmin();
  const call = await adminApi(admin);
  await call('POST', '/attribute', { name: 'plan', format: 'text', type: 'contact', workspaceId: admin.workspaceId });
  await signInUi(page, admin, '/settings/segments');
  await expect(page.getByText('No segments yet')).toBeVisible();
  await page.getByRole('button', { name: 'New segment' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New segment' });
  await dialog.getByRole('button', { name: 'Save segment' }).click();
  await expect(dialog.getByText('This field cannot be empty')).toBeVisible();

  await dialog.getByLabel('Segment name').fill('Gold plan');
  await pick(page, dialog.getByRole('combobox', { name: 'Filter 1 column' }), 'plan');
  await pick(page, dialog.getByRole('combobox', { name: 'Filter 1 operator' }), 'is');
  await dialog.getByLabel('Filter 1 value').fill('gold');
  await dialog.getByRole('button', { name: 'Add filter' }).click();
  await pick(page, dialog.getByRole('combobox', { name: 'Filter 2 conjunction' }), 'or');
  await pick(page, dialog.getByRole('combobox', { name: 'Filter 2 column' }), 'Country');
  await pick(page, dialog.getByRole('combobox', { name: 'Filter 2 operator' }), 'is not empty');
  // The count comes from the server (0 contacts in a new workspace), or says it is unavailable.
  await expect(dialog.getByTestId('segment-count')).toHaveText(/0\s*contacts match|Count unavailable/);
  await dialog.getByRole('button', { name: 'Save segment' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: /Gold plan/ });
  await expect(row).toContainText('plan is "gold" or Country is not empty');
});

test('invite a member who signs up, verifies, and lands in the workspace', async ({ page, browser }) => {
  const admin = await createAdmin({ organizationName: 'Invite Works' });
  await signInUi(page, admin, '/settings/members');
  const inviteeEmail = uniqueEmail('invitee');
  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a member' });
  await dialog.getByLabel('Email').fill(inviteeEmail);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toBeHidden();
  const openInvites = page.getByRole('table', { name: 'Open invitations' });
  await expect(openInvites.getByText(inviteeEmail)).toBeVisible();

  const call = await adminApi(admin);
  const invites = await call<{ items: { id: string; email: string; token: string }[] }>('GET', `/workspace/${admin.workspaceId}/invitees`);
  const invite = invites.items.find((i) => i.email === inviteeEmail)!;

  const context = await browser.newContext({ baseURL: stack.webUrl });
  const other = await context.newPage();
  await other.goto(`/invite/${invite.token}`);
  await expect(other.getByRole('heading', { name: 'Join Invite Works' })).toBeVisible();
  await other.getByRole('link', { name: 'Create your account' }).click();
  await expect(other).toHaveURL(/\/signup\?/);
  await expect(other.getByLabel('Email')).toHaveValue(inviteeEmail);
  await other.getByLabel('Password', { exact: true }).fill('short');
  await other.getByRole('button', { name: 'Create account and join' }).click();
  await expect(other.getByText('Password must be 8 to 50 characters')).toBeVisible();
  await other.getByLabel('Password', { exact: true }).fill('invitee-pass-1');
  await other.getByRole('button', { name: 'Create account and join' }).click();
  await expect(other).toHaveURL(/\/verify-email-address/);
  await verifyAddress(inviteeEmail);
  await expect(other).toHaveURL(/\/live-chat\?tab=closed/, { timeout: 15_000 });
  await expect(other.getByRole('button', { name: /^Invite Works.*switch workspace$/ })).toBeVisible();

  // Signs out and back in: an agent of the workspace.
  await other.getByRole('button', { name: /account menu$/ }).click();
  await other.getByRole('menuitem', { name: 'Sign out' }).click();
  await signInUi(other, { email: inviteeEmail, password: 'invitee-pass-1' }, '/settings/members');
  await expect(other.getByRole('table', { name: 'Members' }).getByText(inviteeEmail)).toBeVisible();
  await expect(other.getByRole('button', { name: 'Invite member' })).toHaveCount(0);
  await context.close();

  // The admin sees the invitation used and the new member listed.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Members' }).getByText(inviteeEmail)).toBeVisible();
  await expect(page.getByText('No open invitations')).toBeVisible();
});
