/**
 * Every label of a step's form is readable at 1024 and 1440 px: no label of the bot's step forms runs under the
 * "{} Variable" button of its text field, and no label of the campaign's step forms runs under a button of its
 * step. Measured with bounding boxes, step by step, at both widths.
 */
import type { Locator } from '@playwright/test';
import { adminApi, connectNumber, createAdmin, expect, test } from './support/fixtures';
import { openCanvas } from './support/canvas';

test.setTimeout(300_000);

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Boxes of the visible elements of a list (a collapsed or hidden one has none). */
async function boxes(list: Locator): Promise<{ text: string; box: Box }[]> {
  const out: { text: string; box: Box }[] = [];
  for (const l of await list.all()) {
    const box = await l.boundingBox();
    if (box && box.width > 0 && box.height > 0) out.push({ text: ((await l.textContent()) ?? '').trim(), box });
  }
  return out;
}

/** Where a label's words are painted: one box per line of its text (a label's own box may be wider than its words). */
async function textLines(label: Locator): Promise<Box[]> {
  return label.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height }));
  });
}

/** Labels of `form` whose words a button of `buttons` covers, as "label under button" lines. */
async function covered(form: Locator, buttons: Locator): Promise<{ found: string[]; buttons: number }> {
  const hits = await boxes(buttons);
  const found: string[] = [];
  for (const label of await form.locator('label').all()) {
    if (!(await label.isVisible())) continue;
    const lines = await textLines(label);
    const text = ((await label.textContent()) ?? '').trim();
    for (const b of hits) if (lines.some((line) => overlap(line, b.box))) found.push(`"${text}" under "${b.text}"`);
  }
  return { found, buttons: hits.length };
}

/** Every kind the bot palette offers, Human handoff last (nothing follows it). */
const botKinds = ['Send message', 'Media', 'Collect input', 'List', 'Reply buttons', 'WhatsApp Flow', 'Condition', 'HTTP request', 'Send e-mail', 'Human handoff'];

test('no label of a bot step form runs under its "{} Variable" button, at 1024 and 1440 px', async ({ page }) => {
  const admin = await createAdmin({ name: 'Ada Admin' });
  const call = await adminApi(admin);
  await call('POST', '/attribute', { name: 'Topic', format: 'text', type: 'contact', workspaceId: admin.workspaceId });
  const bot = await call<{ id: string }>('POST', '/bot', { workspaceId: admin.workspaceId, title: 'Front desk' });
  await page.setViewportSize({ width: 1440, height: 900 });
  await openCanvas(page, admin, `/automation/${bot.id}`);
  const steps = page.getByRole('region', { name: /^Steps/ });
  for (const kind of botKinds) {
    await steps.getByRole('button', { name: /^Start/ }).first().click();
    await page.getByRole('complementary', { name: 'Canvas tools' }).getByRole('button', { name: kind, exact: true }).click();
  }
  await expect(page.getByRole('status').filter({ hasText: /saved/ })).toHaveText(/saved/, { timeout: 15_000 });

  const inspector = page.getByRole('complementary', { name: 'Step and preview' });
  let measured = 0;
  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: width === 1024 ? 768 : 900 });
    const rows = steps.locator('ol > li');
    const count = await rows.count();
    expect(count).toBeGreaterThan(botKinds.length);
    for (let i = 0; i < count; i += 1) {
      const row = rows.nth(i).getByRole('button').first();
      const name = ((await row.textContent()) ?? '').trim();
      await row.click();
      await expect(inspector.getByRole('tab', { name: 'Step' })).toHaveAttribute('aria-selected', 'true');
      const { found, buttons } = await covered(inspector, inspector.getByRole('button', { name: /^Insert a variable/ }));
      measured += buttons;
      expect(found, `${width} px, step "${name}"`).toEqual([]);
    }
  }
  // Most kinds have text fields with the picker: the measure met them.
  expect(measured).toBeGreaterThan(20);
  if (process.env.PARLEY_SCREENSHOTS === '1') {
    // The form with the longest labels beside the picker, pictured into the test's output.
    await steps.getByRole('button', { name: /^Collect input/ }).first().click();
    for (const width of [1024, 1440]) {
      await page.setViewportSize({ width, height: width === 1024 ? 768 : 900 });
      await page.waitForTimeout(400);
      await page.screenshot({ path: test.info().outputPath(`bot-form-labels-${width}.png`) });
    }
  }
});

test('no label of a campaign step form runs under a button of its step, at 1024 and 1440 px', async ({ page }) => {
  const admin = await createAdmin({ name: 'Ada Lovelace' });
  const call = await adminApi(admin);
  const { id: accountId } = await connectNumber(admin);
  const campaign = await call<{ id: string }>('POST', '/campaign', { workspaceId: admin.workspaceId, type: 'oneTime', name: 'Spring sale' });
  const send = (id: string, y: number) => ({
    id,
    type: 'SendWhatsappNode',
    position: { x: 0, y },
    data: { label: 'Send template', whatsappAccountId: accountId, whatsappTemplateId: '', variables: [] },
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
  await openCanvas(page, admin, `/campaigns/${campaign.id}`);
  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: width === 1024 ? 768 : 900 });
    await page.getByRole('button', { name: 'Fit view' }).click();
    await page.waitForTimeout(400);
    const nodes = page.locator('.react-flow__node');
    await expect(nodes).toHaveCount(4);
    let labels = 0;
    for (const node of await nodes.all()) {
      const { found } = await covered(node, node.getByRole('button'));
      labels += await node.locator('label').count();
      expect(found, `${width} px, step "${((await node.textContent()) ?? '').slice(0, 40)}"`).toEqual([]);
    }
    expect(labels).toBeGreaterThan(4);
  }
});
