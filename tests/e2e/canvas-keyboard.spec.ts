/**
 * The campaign canvas by keyboard in a few keys: Alt+A goes back to "Add a step" from any step's form, Enter on an
 * entry adds it after the selected step, so a four-step campaign (segment -> template -> delay -> template) takes
 * at most 25 key presses, counted here; after Pause and Resume the keyboard stays on the button that did it.
 */
import { adminApi, connectNumber, createAdmin, expect, sandbox, stack, test } from './support/fixtures';
import { canvasScreenshots, openCanvas } from './support/canvas';

test.setTimeout(300_000);

/** A workspace with a number, an approved template with one variable, a customer and a segment of them. */
async function seed() {
  const admin = await createAdmin({ name: 'Ada Lovelace', organizationName: 'Northwind Keys' });
  const call = await adminApi(admin);
  const w = admin.workspaceId;
  const { id: accountId, number } = await connectNumber(admin);
  const stamp = String(Date.now()).slice(-6);
  const templateName = `keys_${stamp}`;
  await call('POST', '/whatsapp-template', {
    name: templateName,
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Hi {{1}}, spring is here.', example: { body_text: [['Ada']] } }],
    whatsappAccountId: accountId,
    workspaceId: w,
  });
  await sandbox.setTemplateStatus(templateName, 'APPROVED');
  await expect
    .poll(async () => (await call<{ items: { name: string; status: string }[] }>('GET', `/workspace/${w}/whatsapp-templates?limit=200`)).items.find((t) => t.name === templateName)?.status, { timeout: 30_000 })
    .toBe('APPROVED');
  const waId = `4917${stamp}0`;
  // The customer writes to this workspace's number, so the contact is the workspace's.
  const res = await fetch(`${stack.sandboxOrigin}/_sandbox/customers/${waId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'text', text: 'Hello!', name: 'Grace Hopper', phoneNumberId: number.phoneNumberId }),
  });
  expect(res.ok).toBe(true);
  await expect.poll(async () => (await call<{ items: unknown[] }>('GET', `/workspace/${w}/contacts?search=${waId}`)).items.length, { timeout: 30_000 }).toBe(1);
  await call('POST', '/segment', { name: `Keys ${stamp}`, filters: [{ column: 'phoneNumber', value: `+${waId}`, operator: 'STARTS_WITH', conjuction: 'AND' }], workspaceId: w });
  const campaign = await call<{ id: string }>('POST', '/campaign', { workspaceId: w, type: 'oneTime', name: 'Spring (keyboard)' });
  return { admin, campaignId: campaign.id };
}

test('a four-step campaign in at most 25 key presses; focus stays on Pause / Resume', async ({ page }) => {
  const { admin, campaignId } = await seed();
  await openCanvas(page, admin, `/campaigns/${campaignId}`);
  const node = (kind: string) => page.locator('.react-flow__node', { hasText: kind });
  let presses = 0;
  const press = async (key: string) => {
    presses += 1;
    await page.keyboard.press(key);
  };
  /** A select takes its first choice with one ↓ (its placeholder is first). */
  const choose = () => press('ArrowDown');

  // Segment trigger.
  await press('Alt+A');
  await expect(page.getByRole('button', { name: /Segment trigger/ })).toBeFocused();
  await press('Enter');
  await expect(node('One-time trigger').getByLabel('Audience segment')).toBeFocused();
  await choose();
  await expect(node('One-time trigger').getByText('1 contact in this segment now')).toBeVisible();

  // Send template, after the trigger (the selected step): number, template, the variable's value.
  await press('Alt+A');
  await expect(page.getByRole('button', { name: /^Send template/ })).toBeFocused();
  await press('Enter');
  const send = node('Send WhatsApp').first();
  await expect(send.getByLabel('WhatsApp number')).toBeFocused();
  await choose();
  await press('Tab');
  await choose();
  await press('Tab');
  await press('Tab');
  await expect(send.getByLabel('Value of {{1}} body')).toBeFocused();
  await choose();

  // Delay (its default, one day, is kept).
  await press('Alt+A');
  await press('Tab');
  await expect(page.getByRole('button', { name: /^Delay/ })).toBeFocused();
  await press('Enter');
  await expect(node('Delay').getByLabel('Wait for')).toBeFocused();

  // The second send, after the delay.
  await press('Alt+A');
  await press('Enter');
  const second = node('Send WhatsApp').nth(1);
  await expect(second.getByLabel('WhatsApp number')).toBeFocused();
  await choose();
  await press('Tab');
  await choose();
  await press('Tab');
  await press('Tab');
  await choose();

  const steps = page.getByRole('region', { name: /Steps \(4\)/ });
  await expect(steps.getByRole('combobox', { name: 'Next step after One-time trigger' })).toHaveValue(/.+/);
  await expect(page.getByText('Ready to deploy')).toBeVisible();
  expect(presses).toBeLessThanOrEqual(25);
  await canvasScreenshots(page, 'canvas-campaign');

  // Deploy, pause and resume by keyboard: the keyboard stays on the button each time.
  await page.getByRole('button', { name: 'Deploy' }).focus();
  await page.keyboard.press('Enter');
  const deploy = page.getByRole('dialog', { name: /^Deploy/ });
  await deploy.getByRole('button', { name: 'Deploy now' }).focus();
  await page.keyboard.press('Enter');
  await expect(deploy).toHaveCount(0);
  const pause = page.getByRole('button', { name: 'Pause', exact: true });
  await expect(pause).toBeVisible({ timeout: 30_000 });
  await pause.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: /^Pause/ });
  await dialog.getByRole('button', { name: 'Pause', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  const resume = page.getByRole('button', { name: 'Resume', exact: true });
  await expect(resume).toBeVisible();
  await expect(resume).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(pause).toBeVisible();
  await expect(pause).toBeFocused();
});
