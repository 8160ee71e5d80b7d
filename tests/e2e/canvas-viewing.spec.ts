/**
 * Looking at a live bot changes nothing: panning, zooming, Fit view, and opening and closing every step's form
 * leave it published (no "Unpublished changes", Publish and Discard stay off), on screen and on the server.
 */
import { adminApi, connectNumber, createAdmin, expect, test } from './support/fixtures';
import { canvasScreenshots, openCanvas } from './support/canvas';

test.setTimeout(300_000);

/** A deployed bot: Start -> message -> reply buttons (Yes / No) -> goodbye. */
async function publishedBot() {
  const admin = await createAdmin({ name: 'Ada Admin' });
  const call = await adminApi(admin);
  const { id: accountId } = await connectNumber(admin);
  const bot = await call<{ id: string; rfInstance: { nodes: { id: string; type: string }[] } }>('POST', '/bot', { workspaceId: admin.workspaceId, title: 'Front desk' });
  const start = bot.rfInstance.nodes.find((n) => n.type === 'StartNode')!;
  const text = (id: string, y: number, t: string) => ({ id, type: 'SendMessageNode', position: { x: 0, y }, data: { label: 'Send message', messageBlocks: [{ id: `${id}-b`, type: 'text', text: t }] } });
  await call('PATCH', `/bot/${bot.id}`, {
    rfInstance: {
      nodes: [
        start,
        text('hello', 180, 'Hi! Welcome to Northwind.'),
        { id: 'ask', type: 'ReplyNode', position: { x: 0, y: 380 }, data: { label: 'Reply buttons', body: 'Anything else?', errorMessage: 'Please tap one of the buttons.' } },
        { id: 'yes', type: 'ReplyButtonNode', position: { x: -120, y: 600 }, data: { label: 'Yes' } },
        { id: 'no', type: 'ReplyButtonNode', position: { x: 120, y: 600 }, data: { label: 'No' } },
        text('bye', 760, 'Thanks, goodbye!'),
      ],
      edges: [
        { id: 'e0', source: start.id, target: 'hello' },
        { id: 'e1', source: 'hello', target: 'ask' },
        { id: 'e2', source: 'ask', target: 'yes' },
        { id: 'e3', source: 'ask', target: 'no' },
        { id: 'e4', source: 'yes', target: 'bye' },
        { id: 'e5', source: 'no', target: 'bye' },
      ],
    },
  });
  await call('PATCH', `/bot/${bot.id}/connectWaba`, { wabaAccountId: accountId });
  await call('PATCH', `/bot/${bot.id}`, { isActive: true });
  return { admin, call, botId: bot.id };
}

test('panning, zooming and opening every form of a published bot leaves it published', async ({ page }) => {
  const { admin, call, botId } = await publishedBot();
  await openCanvas(page, admin, `/automation/${botId}`);
  const publish = page.getByRole('button', { name: 'Publish' });
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await expect(publish).toBeDisabled();

  await page.getByRole('button', { name: 'Fit view' }).click();
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  // Pan by dragging the empty corner of the canvas, then zoom with the wheel and the zoom buttons.
  await page.mouse.move(pane.x + 12, pane.y + 12);
  await page.mouse.down();
  await page.mouse.move(pane.x + 140, pane.y + 90, { steps: 8 });
  await page.mouse.up();
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  await page.mouse.wheel(0, -300);
  await page.getByRole('button', { name: 'Zoom out' }).click();

  // Every step's form, opened from the step list and left unchanged.
  const steps = page.getByRole('region', { name: /^Steps/ });
  const rows = steps.getByRole('button', { name: /^(Start|Send message|Reply buttons|Button)/ });
  const count = await rows.count();
  expect(count).toBe(6);
  for (let i = 0; i < count; i += 1) {
    await rows.nth(i).click();
    await expect(page.getByRole('complementary', { name: 'Step and preview' }).getByRole('tab', { name: 'Step' })).toHaveAttribute('aria-selected', 'true');
  }
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Fit view' }).click();

  // Longer than autosave waits: nothing was saved, so nothing is unpublished.
  await page.waitForTimeout(2500);
  await expect(page.getByText('Unpublished changes')).toHaveCount(0);
  await expect(publish).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Discard' })).toHaveCount(0);
  const bot = await call<{ hasUnpublishedChanges: boolean }>('GET', `/bot/${botId}`);
  expect(bot.hasUnpublishedChanges).toBe(false);
  await canvasScreenshots(page, 'canvas-bot');
});
