/**
 * `npm run screenshots`: a picture of every screen, light and (some) dark, into docs/screenshots/. Not part of
 * `npm run test:e2e` (tests/e2e/playwright.config.ts ignores this file unless PARLEY_SCREENSHOTS=1).
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { adminApi, connectNumber, createAdmin, expect, signInUi, test, pick } from './support/fixtures';

const dir = path.resolve('docs/screenshots');
async function shot(page: Page, name: string, opts: { top?: boolean } = {}) {
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  if (opts.top) await page.locator('#main').evaluate((el) => el.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test('every screen', async ({ page }) => {
  await page.goto('/');
  await shot(page, '01-landing');
  await page.goto('/login');
  await shot(page, '02-login');
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('Work email').fill('someone@gmail.com');
  await shot(page, '03-signup-errors');
  await page.goto('/forgot-password');
  await shot(page, '04-forgot-password');

  const admin = await createAdmin({ name: 'Ada Lovelace', organizationName: 'Northwind Support' });
  const call = await adminApi(admin);
  const w = admin.workspaceId;
  await connectNumber(admin);
  for (const a of [
    { name: 'plan', description: 'Subscription plan', format: 'text' },
    { name: 'orders', description: 'Orders placed', format: 'number' },
    { name: 'vip', description: 'VIP customer', format: 'boolean' },
  ]) {
    await call('POST', '/attribute', { ...a, type: 'contact', workspaceId: w });
  }
  await call('POST', '/segment', {
    name: 'Gold customers',
    filters: [{ column: 'plan', value: 'gold', operator: 'IS', conjuction: 'AND' }],
    workspaceId: w,
  });
  await call('POST', '/segment', {
    name: 'Berlin VIPs',
    filters: [
      { column: 'city', value: 'Berlin', operator: 'IS', conjuction: 'AND' },
      { column: 'vip', value: 'true', operator: 'IS', conjuction: 'AND' },
    ],
    workspaceId: w,
  });
  await call('POST', '/bot', { workspaceId: w, title: 'Order status helper' });
  await call('POST', '/bot', { workspaceId: w, title: 'After-hours greeter' });
  await call('POST', '/campaign', { workspaceId: w, type: 'oneTime', name: 'Winter sale' });
  await call('POST', '/campaign', { workspaceId: w, type: 'recurring', name: 'Delivery updates' });
  await call('POST', '/invitee', { email: 'grace@northwind-e2e.com', role: 'agent', workspaceId: w });
  await call('POST', '/invitee', { email: 'linus@northwind-e2e.com', role: 'admin', workspaceId: w });

  const invites = await call<{ items: { id: string; token: string }[] }>('GET', `/workspace/${w}/invitees`);
  await page.goto(`/invite/${invites.items[0].token}`);
  await expect(page.getByRole('heading', { name: 'Join Northwind Support' })).toBeVisible();
  await shot(page, '05-invitation');

  await signInUi(page, admin);
  await page.waitForTimeout(800);
  await shot(page, '10-live-chat');

  await page.goto('/templates/create');
  await page.getByLabel('Name').fill('order_shipped');
  await page.getByLabel('Message').fill('Hi {{1}}, good news: your order {{2}} has shipped and arrives on {{3}}.');
  await page.getByLabel('Example for {{1}}').fill('Maria');
  await page.getByLabel('Example for {{2}}').fill('#4821');
  await page.getByLabel('Example for {{3}}').fill('Friday');
  await page.getByLabel('Footer').fill('Northwind Support');
  await page.getByRole('button', { name: 'Visit website' }).click();
  await page.getByLabel('Button 1 text').fill('Track order');
  await page.getByLabel('Button 1 URL').fill('https://northwind.example/track');
  await page.getByRole('button', { name: 'Quick reply' }).click();
  await page.getByLabel('Button 2 text').fill('Talk to us');
  await shot(page, '20-template-create', { top: true });
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page).toHaveURL(/\/templates$/);
  await page.waitForTimeout(500);
  await page.goto('/templates');
  await page.waitForTimeout(500);
  await shot(page, '21-templates');

  await page.goto('/audience');
  await page.waitForTimeout(800);
  await shot(page, '11-audience');
  await page.goto('/campaigns');
  await shot(page, '30-campaigns');
  await page.getByRole('link', { name: 'Winter sale' }).click();
  await expect(page.locator('.react-flow')).toBeVisible();
  await shot(page, '31-campaign');
  await page.goto('/automation');
  await shot(page, '32-automation');
  await page.getByRole('link', { name: 'Order status helper' }).click();
  await expect(page.locator('.react-flow')).toBeVisible();
  await shot(page, '33-bot');

  await page.goto('/settings');
  await shot(page, '40-settings');
  await page.goto('/settings/profile');
  await shot(page, '41-profile');
  await page.goto('/settings/whatsapp');
  await shot(page, '42-whatsapp-accounts');
  await page.getByRole('button', { name: 'Connect number' }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Connect number' }).click();
  await shot(page, '43-whatsapp-connect-errors');
  await page.keyboard.press('Escape');
  await page.goto('/settings/segments');
  await shot(page, '44-segments');
  await page.getByRole('button', { name: 'New segment' }).click();
  const dialog = page.getByRole('dialog', { name: 'New segment' });
  await dialog.getByLabel('Segment name').fill('Gold plan, not in Berlin');
  await pick(page, dialog.getByRole('combobox', { name: 'Filter 1 column' }), 'plan');
  await pick(page, dialog.getByRole('combobox', { name: 'Filter 1 operator' }), 'is');
  await dialog.getByLabel('Filter 1 value').fill('gold');
  await dialog.getByRole('button', { name: 'Add filter' }).click();
  await pick(page, dialog.getByRole('combobox', { name: 'Filter 2 column' }), 'City');
  await pick(page, dialog.getByRole('combobox', { name: 'Filter 2 operator' }), 'is not');
  await dialog.getByLabel('Filter 2 value').fill('Berlin');
  await page.waitForTimeout(800);
  await shot(page, '45-segment-builder');
  await page.keyboard.press('Escape');
  await page.goto('/settings/members');
  await shot(page, '46-members');
  await page.goto('/settings/attributes');
  await shot(page, '47-attributes');
  await page.getByRole('button', { name: 'New attribute' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('plan');
  await page.getByRole('dialog').getByRole('button', { name: 'Create attribute' }).click();
  await expect(page.getByRole('dialog').getByText(/already exists/)).toBeVisible();
  await shot(page, '48-attribute-409');
  await page.keyboard.press('Escape');

  await page.goto('/no-such-screen');
  await shot(page, '50-not-found');

  // Dark theme (the toggle cycles system -> light -> dark).
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/templates');
  await page.waitForTimeout(500);
  await shot(page, '60-templates-dark');
  await page.goto('/settings/members');
  await shot(page, '61-members-dark');
  await page.goto('/templates/create');
  await page.getByLabel('Message').fill('Your verification code is {{1}}. It expires in 10 minutes.');
  await page.getByLabel('Example for {{1}}').fill('482 913');
  await shot(page, '62-template-create-dark', { top: true });
});
