/**
 * Editing on the campaign canvas loses nothing and lands where the user looks: a whole canvas pasted nine times
 * is saved step for step (the trigger, one of a kind, is left out with a word why) and no step covers another;
 * a refused save names its step and leaving asks first; a drop stays where it fell; Fit view clears the minimap;
 * Ctrl+A selects the steps, not the page's text; the shortcuts sheet names box selection.
 */
import type { Locator, Page } from '@playwright/test';
import { adminApi, createAdmin, expect, test } from './support/fixtures';
import { openCanvas } from './support/canvas';

test.setTimeout(300_000);

/** A draft one-time campaign of four steps (trigger, send, delay, send), as the palette makes them. */
async function draftCampaign() {
  const admin = await createAdmin({ name: 'Ada Lovelace' });
  const call = await adminApi(admin);
  const campaign = await call<{ id: string }>('POST', '/campaign', { workspaceId: admin.workspaceId, type: 'oneTime', name: 'Spring sale' });
  const send = (id: string, y: number) => ({
    id,
    type: 'SendWhatsappNode',
    position: { x: 0, y },
    data: { label: 'Send template', whatsappAccountId: '', whatsappTemplateId: '', variables: [] },
  });
  await call('PATCH', `/campaign/${campaign.id}`, {
    rfInstance: {
      nodes: [
        { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Audience', segmentId: '' } },
        send('send-1', 260),
        { id: 'delay', type: 'DelayNode', position: { x: 0, y: 620 }, data: { label: 'Wait', waitFor: 1, waitForUnit: 'days' } },
        send('send-2', 820),
      ],
      edges: [
        { id: 'e1', source: 'trigger', target: 'send-1' },
        { id: 'e2', source: 'send-1', target: 'delay' },
        { id: 'e3', source: 'delay', target: 'send-2' },
      ],
    },
  });
  return { admin, call, campaignId: campaign.id };
}

const nodes = (page: Page) => page.locator('.react-flow__node');
const stepCount = (page: Page) => page.getByRole('region', { name: /^Steps \(\d+\)/ });

async function boxes(list: Locator) {
  return Promise.all((await list.all()).map(async (l) => (await l.boundingBox())!));
}
const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function expectNoOverlap(page: Page) {
  const all = await boxes(nodes(page));
  for (const [i, a] of all.entries()) for (const b of all.slice(i + 1)) expect(overlap(a, b), `steps overlap: ${JSON.stringify([a, b])}`).toBe(false);
}

async function emptyPanePoint(page: Page) {
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  // Fit view leaves 32 px at the top and 48 px at the sides: the corner is canvas, not a step.
  return { x: pane.x + 12, y: pane.y + 12 };
}

test('a whole canvas pasted nine times is saved step for step, without a second trigger and without covering a step', async ({ page }) => {
  const { admin, call, campaignId } = await draftCampaign();
  await page.setViewportSize({ width: 1440, height: 900 });
  await openCanvas(page, admin, `/campaigns/${campaignId}`);
  await expect(stepCount(page)).toHaveAccessibleName(/Steps \(4\)/);
  await page.getByRole('button', { name: 'Fit view' }).click();

  // Ctrl+A on the canvas selects every step, not the page's text.
  const corner = await emptyPanePoint(page);
  await page.mouse.click(corner.x, corner.y);
  await page.keyboard.press('Control+A');
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(4);
  expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');

  await page.keyboard.press('Control+C');
  await page.keyboard.press('Control+V');
  await expect(page.getByText('Not pasted: A campaign has one trigger')).toBeVisible();
  for (let i = 1; i < 9; i += 1) await page.keyboard.press('Control+V');
  await expect(stepCount(page)).toHaveAccessibleName(/Steps \(31\)/);
  await expect(page.getByRole('status').filter({ hasText: /saved/ })).toHaveText('All changes saved', { timeout: 15_000 });

  await page.getByRole('button', { name: 'Fit view' }).click();
  await page.waitForTimeout(400);
  await expectNoOverlap(page);
  // Fit view keeps every step out from under the minimap.
  const minimap = (await page.locator('.react-flow__minimap').boundingBox())!;
  for (const b of await boxes(nodes(page))) expect(overlap(b, minimap), 'a step sits under the minimap').toBe(false);

  await page.reload({ waitUntil: 'commit' });
  await expect(stepCount(page)).toHaveAccessibleName(/Steps \(31\)/, { timeout: 120_000 });
  const saved = await call<{ rfInstance: { nodes: { type: string }[]; edges: unknown[] } }>('GET', `/campaign/${campaignId}`);
  expect(saved.rfInstance.nodes).toHaveLength(31);
  expect(saved.rfInstance.nodes.filter((n) => n.type === 'OneTimeTriggerNode')).toHaveLength(1);
  // Each pasted copy keeps its own links: send -> delay -> send, nine times over, plus the original three.
  expect(saved.rfInstance.edges).toHaveLength(3 + 9 * 2);
});

test('a step dropped on the canvas stays where it fell, and a step added from the palette takes free space', async ({ page }) => {
  const { admin, campaignId } = await draftCampaign();
  await page.setViewportSize({ width: 1440, height: 900 });
  await openCanvas(page, admin, `/campaigns/${campaignId}`);
  await page.getByRole('button', { name: 'Fit view' }).click();
  await page.waitForTimeout(400);
  const viewport = page.locator('.react-flow__viewport');
  const before = await viewport.getAttribute('style');
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  const drop = { x: pane.width - 260, y: 40 };
  await page.getByRole('region', { name: 'Add a step' }).getByRole('button', { name: /^Delay/ }).dragTo(page.locator('.react-flow__pane'), { targetPosition: drop });
  await expect(nodes(page)).toHaveCount(5);
  await page.waitForTimeout(400);
  expect(await viewport.getAttribute('style')).toBe(before);
  const dropped = (await nodes(page).filter({ hasText: 'Delay' }).last().boundingBox())!;
  expect(Math.abs(dropped.x - (pane.x + drop.x))).toBeLessThan(4);
  expect(Math.abs(dropped.y - (pane.y + drop.y))).toBeLessThan(4);

  // After the first send step (whose place below is taken by the delay), a new step goes beside, not on top.
  await page.getByRole('region', { name: /^Steps/ }).getByRole('button', { name: 'Send WhatsApp', exact: true }).first().click();
  await page.getByRole('region', { name: 'Add a step' }).getByRole('button', { name: /^Delay/ }).click();
  await expect(nodes(page)).toHaveCount(6);
  await page.getByRole('button', { name: 'Fit view' }).click();
  await page.waitForTimeout(400);
  await expectNoOverlap(page);

  // The shortcuts sheet names box selection.
  await page.locator('main h1').focus();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet.getByText('Select the steps inside a box')).toBeVisible();
  await expect(sheet.getByText('Back to "Add a step" (Enter adds after the selected step)')).toBeVisible();
});

test('a save the server refuses names its step, and leaving then asks first', async ({ page }) => {
  const { admin, campaignId } = await draftCampaign();
  await openCanvas(page, admin, `/campaigns/${campaignId}`);
  await expect(stepCount(page)).toHaveAccessibleName(/Steps \(4\)/);
  // The server refuses the delay's value (node 2 of the saved graph).
  await page.route(`**/campaign/${campaignId}`, (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: ['rfInstance.nodes.2.data.waitFor: Wait at most 30 days'] }),
        })
      : route.continue(),
  );
  const delay = nodes(page).filter({ hasText: 'Delay' });
  await delay.getByLabel('Wait for').fill('45');
  await expect(page.getByRole('alert').filter({ hasText: 'Changes not saved' })).toContainText('Changes not saved: Wait at most 30 days');
  await expect(delay).toHaveClass(/selected/);

  await page.getByRole('link', { name: 'Back to campaigns' }).click();
  const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Stay' }).click();
  await expect(ask).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}$`));
  await expect(delay.getByLabel('Wait for')).toHaveValue('45');

  await page.getByRole('link', { name: 'Back to campaigns' }).click();
  await ask.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page).toHaveURL(/\/campaigns$/);
});
