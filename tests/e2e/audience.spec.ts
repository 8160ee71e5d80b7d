/** Audience end to end: import a CSV through the wizard and find the contacts in the table. */
import { createAdmin, expect, signInUi, test } from './support/fixtures';

test('import a CSV and see the contacts', async ({ page }) => {
  const admin = await createAdmin();
  await signInUi(page, admin, '/audience');
  await expect(page.getByText('No contacts yet')).toBeVisible();

  await page.getByRole('button', { name: 'Import contacts' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts' });
  const csv = [
    'Phone,Name,Email,Notes',
    '+14155550101,Grace Hopper,grace@example.com,first',
    '+447911123456,Alan Turing,,second',
    'not-a-number,Nobody,,third',
  ].join('\n');
  await dialog.getByLabel('CSV file').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

  // Preview parsed in the browser; the mapping is guessed from the header.
  await expect(dialog.getByRole('cell', { name: 'Grace Hopper' })).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Map column Phone' })).toHaveText('Phone number');

  // Without a phone column the import is refused with the spec's message.
  await dialog.getByRole('combobox', { name: 'Map column Phone' }).click();
  await page.getByRole('option', { name: 'Don’t import' }).click();
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('At least one column must be mapped to phoneNumber');
  await dialog.getByRole('combobox', { name: 'Map column Phone' }).click();
  await page.getByRole('option', { name: 'Phone number' }).click();

  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByText('Import finished')).toBeVisible({ timeout: 30_000 });
  const created = dialog.locator('dt', { hasText: 'Created' }).locator('xpath=following-sibling::dd');
  await expect(created).toHaveText('2');
  const rejected = dialog.locator('dt', { hasText: 'Rejected' }).locator('xpath=following-sibling::dd');
  await expect(rejected).toHaveText('1');
  await expect(dialog.getByRole('link', { name: /Download the error report/ })).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();

  const table = page.getByTestId('contacts-scroller');
  await expect(table.getByText('Grace Hopper')).toBeVisible();
  await expect(table.getByText('Alan Turing')).toBeVisible();
  await expect(table.getByText('+447911123456')).toBeVisible();

  // Search narrows the table.
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill('Alan');
  await expect(table.getByText('Grace Hopper')).toHaveCount(0);
  await expect(table.getByText('Alan Turing')).toBeVisible();

  // The import is listed in the history.
  await page.getByRole('tab', { name: 'Import history' }).click();
  await expect(page.getByRole('table', { name: 'Import history' }).getByText('customers.csv')).toBeVisible();
});
