/**
 * A new team's setup end to end: templates a number already has at Meta, synced on demand; the number's
 * health refreshed by Meta's webhook; contacts added by hand, exported and deleted. Screens at 1024 and 1440 px.
 */
import type { Page } from '@playwright/test';
import { connectNumber, createAdmin, expect, sandbox, signInUi, test } from './support/fixtures';

const shotDir = process.env.PARLEY_SETUP_SHOTS;
async function shots(page: Page, name: string) {
  if (!shotDir) return;
  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: `${shotDir}/${name}-${width}.png` });
  }
}

test('templates made in WhatsApp Manager are listed by Sync from WhatsApp; the number’s health follows Meta', async ({ page }) => {
  const admin = await createAdmin();
  const { number } = await connectNumber(admin);
  await signInUi(page, admin, '/templates');
  // Connecting listed what the number had at Meta already (the sample every WABA gets).
  await expect(page.getByRole('table', { name: 'Templates' }).getByText('hello_world', { exact: true })).toBeVisible();

  await sandbox.seedTemplate(number.phoneNumberId, 'spring_offer', { category: 'MARKETING' });
  await page.getByRole('button', { name: 'Sync from WhatsApp' }).click();
  await expect(page.getByText('Templates synced from WhatsApp: 1 added')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Templates' }).getByText('spring_offer', { exact: true })).toBeVisible();
  await shots(page, 'templates');

  await page.goto('/settings/whatsapp');
  const health = page.getByLabel(`Health of ${number.phoneNumber}`);
  await expect(health.getByText('High quality')).toBeVisible();
  await sandbox.setNumberHealth(number.phoneNumberId, { qualityRating: 'RED', messagingLimitTier: 'TIER_250' });
  await page.getByRole('button', { name: `Refresh health of ${number.phoneNumber}` }).click();
  await expect(health.getByText('Low quality')).toBeVisible();
  await expect(health.getByText('250 customers a day', { exact: true })).toBeVisible();
  await expect(health.getByText('Portfolio: 250 customers a day')).toBeVisible();
  await expect(health.getByText('Flagged by Meta')).toBeVisible();
  await shots(page, 'whatsapp-health');
});

test('a contact added by hand, exported to CSV, then deleted', async ({ page }) => {
  const admin = await createAdmin();
  await signInUi(page, admin, '/audience');
  await page.getByRole('button', { name: 'Add contact' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a contact' });
  await dialog.getByLabel('Phone number').fill('+1 415 555 0133');
  await dialog.getByLabel('Name').fill('Grace Hopper');
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Grace Hopper').first()).toBeVisible();
  await expect(page.getByText('1 contact', { exact: true })).toBeVisible();
  await shots(page, 'audience');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  const csv = await (await file.createReadStream()).toArray();
  expect(Buffer.concat(csv).toString()).toContain('Grace Hopper,+14155550133');

  await page.getByRole('button', { name: 'Edit Grace Hopper' }).click();
  await page.getByRole('button', { name: 'Delete contact' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No contacts yet')).toBeVisible();
});
