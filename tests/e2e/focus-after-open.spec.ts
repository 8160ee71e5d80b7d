/**
 * What a new user tripped on: opening a campaign from the list with Enter leaves focus on the
 * campaign page's heading (not the page body), and the audience import's file chooser shows a focus ring.
 */
import { adminApi, createAdmin, expect, signInUi, test } from './support/fixtures';

test('Enter on a campaign keeps focus on its page; the import file chooser shows where focus is', async ({ page }) => {
  const admin = await createAdmin();
  const call = await adminApi(admin);
  await call('POST', '/campaign', { workspaceId: admin.workspaceId, type: 'oneTime', name: 'Spring sale' });

  await signInUi(page, admin, '/campaigns');
  const link = page.getByRole('link', { name: 'Spring sale' });
  await link.focus();
  await link.press('Enter');
  await expect(page).toHaveURL(/\/campaigns\/[0-9a-f-]{36}/);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toContainText('Spring sale');
  await expect(heading).toBeFocused();
  // Tab goes on from the heading into the page's controls, not from the top of the document.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);

  await page.goto('/audience');
  await page.getByRole('button', { name: 'Import contacts' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts' });
  const input = dialog.getByLabel('CSV file');
  const zone = dialog.locator('label', { hasText: 'Choose a CSV file or drop it here' });
  const ring = () => zone.evaluate((el) => getComputedStyle(el).boxShadow);
  const before = await ring();
  // Keyboard focus (Tab) on the chooser: the drop zone draws the ring.
  await dialog.getByRole('button', { name: 'Close' }).focus();
  for (let i = 0; i < 5 && !(await input.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(input).toBeFocused();
  expect(await ring()).not.toBe(before);
  expect(await ring()).not.toBe('none');
});
