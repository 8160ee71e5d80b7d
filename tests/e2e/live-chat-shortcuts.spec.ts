/**
 * Keyboard shortcuts  and the unread signs of item 5 / 9: the quick switcher (Ctrl+K) finds a
 * conversation, a contact and a screen by name; J / K step through the list; E closes and opens the next; A
 * assigns to me; R focuses the composer; keys typed in a field are text, never shortcuts; `?` shows the sheet.
 * A customer message that arrives while the agent is on another screen shows on the navigation and in the title.
 */
import { connectNumber, createAdmin, expect, signInUi, stack, test, sandbox } from './support/fixtures';

const customerWrites = sandbox.customerSaysTo;

test('quick switcher and live-chat shortcuts', async ({ page }) => {
  const admin = await createAdmin({ name: 'Kim Keys' });
  const { number } = await connectNumber(admin);
  const suffix = String(Date.now()).slice(-4);
  await customerWrites(number.phoneNumberId, `1415550${suffix}`, 'First question', 'Grace Hopper');
  await customerWrites(number.phoneNumberId, `1415551${suffix}`, 'Second question', 'Alan Turing');

  await signInUi(page, admin, '/audience');
  // Not on live chat: the navigation entry and the title carry the unread count.
  await expect(page.getByRole('link', { name: /Live chat.*2 unread/ })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveTitle(/^\(2\) Audience · Parley$/);

  // Ctrl+K -> a conversation by the contact's name.
  await page.keyboard.press('Control+k');
  const go = page.getByRole('combobox', { name: 'Go to' });
  await expect(go).toBeFocused();
  await go.fill('Grace');
  const option = page.getByRole('option', { name: /Grace Hopper.*Open conversation/ });
  await expect(option).toBeVisible();
  await go.press('Enter');
  await expect(page).toHaveURL(/\/live-chat\/[0-9a-f-]+\?tab=open/);
  await expect(page.getByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeVisible();

  // A screen by name, from the button as well as the keys.
  await page.getByRole('button', { name: 'Go to…' }).click();
  await page.getByRole('combobox', { name: 'Go to' }).fill('members');
  await page.getByRole('option', { name: /Members · Settings/ }).click();
  await expect(page).toHaveURL(/\/settings\/members/);

  // Back to the open tab; J opens the first conversation, J the next, K the previous.
  await page.goto(`${stack.webUrl}/live-chat?tab=open`);
  const list = page.getByRole('navigation', { name: 'Conversations' });
  await expect(list.getByRole('link')).toHaveCount(2);
  const first = (await list.getByRole('link').first().getAttribute('data-conversation-id'))!;
  const second = (await list.getByRole('link').nth(1).getAttribute('data-conversation-id'))!;
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`/live-chat/${first}`));
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`/live-chat/${second}`));
  await page.keyboard.press('k');
  await expect(page).toHaveURL(new RegExp(`/live-chat/${first}`));

  // R: the composer; letters typed there are text, not shortcuts. (Pressed once the conversation is on screen:
  // the URL changes before the conversation has loaded.)
  const composer = page.getByRole('textbox', { name: 'Message' });
  await expect(composer).toBeVisible();
  await page.keyboard.press('r');
  await expect(composer).toBeFocused();
  await page.keyboard.type('jake');
  await expect(composer).toHaveValue('jake');
  await expect(page).toHaveURL(new RegExp(`/live-chat/${first}`));
  await composer.fill('');

  // A: assign to me (from outside the field).
  await page.getByRole('region', { name: 'Messages' }).click();
  await page.keyboard.press('a');
  await expect(page.getByRole('button', { name: 'Assign (currently Kim Keys)' })).toBeVisible();

  // E: close this one and open the next.
  await page.keyboard.press('e');
  await expect(page).toHaveURL(new RegExp(`/live-chat/${second}`));
  await expect(list.getByRole('link')).toHaveCount(1);

  // ?: the sheet names every shortcut and its way without keys.
  await page.getByRole('region', { name: 'Messages' }).click();
  await page.keyboard.press('Shift+?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByText('Close and go to the next conversation')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
});
