/**
 * Labels that say what is true, after a campaign reached a customer: the first sign-in opens the live-chat tab
 * holding the conversation (not the empty Closed tab), the campaign's message there is marked as the
 * campaign's (not "Bot"), and the results chart of a campaign whose updates all came at one time point shows
 * every series. With PARLEY_SCREENSHOTS=1 the screens are pictured at 1024 and 1440 px into the test's output.
 */
import type { Page } from '@playwright/test';
import { adminApi, connectNumber, createAdmin, expect, sandbox, signInUi, stack, test } from './support/fixtures';

test.setTimeout(180_000);

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A workspace whose one customer wrote, then got the one-time campaign "Spring sale" and read it. */
async function campaignReached() {
  const admin = await createAdmin({ name: 'Ada Lovelace', organizationName: 'Northwind Marks' });
  const call = await adminApi(admin);
  const w = admin.workspaceId;
  const { id: accountId, number } = await connectNumber(admin);
  const stamp = String(Date.now()).slice(-6);
  const templateName = `spring_${stamp}`;
  const template = await call<{ id: string }>('POST', '/whatsapp-template', {
    name: templateName,
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Our spring sale starts today.' }],
    whatsappAccountId: accountId,
    workspaceId: w,
  });
  await sandbox.setTemplateStatus(templateName, 'APPROVED');
  await expect
    .poll(async () => (await call<{ items: { name: string; status: string }[] }>('GET', `/workspace/${w}/whatsapp-templates?limit=200`)).items.find((t) => t.name === templateName)?.status, { timeout: 20_000 })
    .toBe('APPROVED');
  const waId = `4917${stamp}0`;
  const wrote = await fetch(`${stack.sandboxOrigin}/_sandbox/customers/${waId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'text', text: 'Hello!', name: 'Grace Hopper', phoneNumberId: number.phoneNumberId }),
  });
  expect(wrote.ok).toBe(true);
  await expect.poll(async () => (await call<{ items: unknown[] }>('GET', `/workspace/${w}/contacts?search=${waId}`)).items.length, { timeout: 20_000 }).toBe(1);
  const segment = await call<{ id: string }>('POST', '/segment', {
    name: `Customers ${stamp}`,
    filters: [{ column: 'phoneNumber', value: `+${waId}`, operator: 'IS', conjuction: 'AND' }],
    workspaceId: w,
  });
  const campaign = await call<{ id: string }>('POST', '/campaign', { workspaceId: w, type: 'oneTime', name: 'Spring sale' });
  await call('PATCH', `/campaign/${campaign.id}`, {
    rfInstance: {
      nodes: [
        { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Audience', segmentId: segment.id } },
        { id: 'send', type: 'SendWhatsappNode', position: { x: 0, y: 200 }, data: { label: 'Send', whatsappAccountId: accountId, whatsappTemplateId: template.id, variables: [] } },
      ],
      edges: [{ id: 'e1', source: 'trigger', target: 'send' }],
    },
  });
  await call('POST', `/campaign/${campaign.id}/deploy`, {});
  await expect
    .poll(async () => (await call<{ counts: { read: number } }>('GET', `/campaign/${campaign.id}/results`)).counts.read, { timeout: 45_000 })
    .toBe(1);
  return { admin, call, campaignId: campaign.id };
}

async function pictures(page: Page, name: string) {
  if (process.env.PARLEY_SCREENSHOTS !== '1') return;
  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: width === 1024 ? 768 : 900 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}

test('after a campaign: sign-in opens the tab with the conversation, its message says the campaign, its chart shows every series', async ({ page }) => {
  const { admin, call, campaignId } = await campaignReached();
  const counts = await call<Record<'me' | 'assigned' | 'open' | 'closed', number>>('GET', `/workspace/${admin.workspaceId}/conversations/counts`);
  const expected = (['me', 'assigned', 'open'] as const).find((t) => counts[t] > 0);
  expect(expected, JSON.stringify(counts)).toBeDefined();

  // The first sign-in on this browser: the tab holding the conversation, not the empty Closed tab.
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInUi(page, admin);
  await expect(page).toHaveURL(new RegExp(`/live-chat\\?tab=${expected}$`));
  await expect(page.getByRole('tab', { selected: true })).toHaveAccessibleName(new RegExp(`^${expected}`, 'i'));
  const row = page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /Grace Hopper/ });
  await expect(row).toBeVisible();

  // The campaign's message is the campaign's.
  await row.click();
  const sale = page.getByRole('article').filter({ hasText: 'Our spring sale starts today.' });
  await expect(sale.getByText('Campaign: Spring sale')).toBeVisible();
  await expect(sale.getByText('Bot', { exact: true })).toHaveCount(0);
  await pictures(page, 'live-chat-campaign-message');

  // One time point: Sent, Delivered and Read stand side by side, each seen; Failed shows its 0.
  await page.goto(`/campaigns/${campaignId}`);
  const chart = page.getByTestId('results-chart');
  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: width === 1024 ? 768 : 900 });
    await expect(chart.locator('.recharts-surface').last()).toBeVisible({ timeout: 30_000 });
    const bars: Box[] = [];
    for (const key of ['sent', 'delivered', 'read']) {
      const bar = chart.locator(`.results-series-${key} .recharts-rectangle`);
      await expect(bar, `${key} at ${width} px`).toHaveCount(1);
      const box = (await bar.boundingBox())!;
      expect(box.width, `${key} at ${width} px`).toBeGreaterThan(4);
      expect(box.height, `${key} at ${width} px`).toBeGreaterThan(4);
      bars.push(box);
      await expect(chart.locator(`.results-value-${key}`)).toHaveText('1');
    }
    for (const [i, a] of bars.entries()) for (const b of bars.slice(i + 1)) expect(overlap(a, b), `bars overlap at ${width} px`).toBe(false);
    await expect(chart.locator('.results-value-failed')).toHaveText('0');
    for (const name of ['Sent', 'Delivered', 'Read', 'Failed']) await expect(chart.locator('.recharts-legend-item-text', { hasText: name })).toBeVisible();
  }
  await pictures(page, 'campaign-results-one-point');
});
