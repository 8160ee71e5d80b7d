/**
 * Campaigns end to end: a campaign built on the canvas by mouse and by keyboard (segment -> template
 * with a mapped variable -> delay -> template), deployed, received by the sandbox's customers, with logs and
 * counts filling in; a recurring campaign triggered by `curl` with its key; a customer's STOP honoured by the
 * next campaign; a campaign halted by a template WhatsApp paused, shown with its code and words, resumed.
 */
import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { adminApi, connectNumber, createAdmin, expect, sandbox, signInUi, stack, test } from './support/fixtures';

test.setTimeout(150_000);

type Call = Awaited<ReturnType<typeof adminApi>>;
interface Workspace {
  admin: Awaited<ReturnType<typeof createAdmin>>;
  call: Call;
  accountId: string;
  phoneNumberId: string;
  phoneNumber: string;
  templateName: string;
  segmentName: string;
  waIds: string[];
}

const customerWrites = sandbox.customerSaysTo;

/** Sandbox messages of type template sent to these customers. */
async function templatesSentTo(waIds: string[]) {
  const state = (await sandbox.state()) as { sent: { waId: string; to: string; type: string; body: { template?: { name?: string } } }[] };
  return state.sent.filter((m) => m.type === 'template' && (waIds.includes(m.waId) || waIds.includes(m.to.replace(/^\+/, ''))));
}

/** A workspace with a connected sandbox number, an approved template with a variable, and customers in a segment. */
async function seed(customers: string[]): Promise<Workspace> {
  const admin = await createAdmin({ name: 'Ada Lovelace', organizationName: 'Northwind Campaigns' });
  const call = await adminApi(admin);
  const w = admin.workspaceId;
  const { id: accountId, number } = await connectNumber(admin);
  const stamp = String(Date.now()).slice(-6);
  const templateName = `promo_${stamp}`;
  await call('POST', '/whatsapp-template', {
    name: templateName,
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Hi {{1}}, our winter sale starts today.', example: { body_text: [['Ada']] } }],
    whatsappAccountId: accountId,
    workspaceId: w,
  });
  await sandbox.setTemplateStatus(templateName, 'APPROVED');
  await expect
    .poll(async () => {
      const page = await call<{ items: { name: string; status: string }[] }>('GET', `/workspace/${w}/whatsapp-templates?limit=200`);
      return page.items.find((t) => t.name === templateName)?.status;
    }, { timeout: 20_000 })
    .toBe('APPROVED');

  const prefix = `4917${stamp}`;
  const waIds = customers.map((_, i) => `${prefix}${i}`);
  for (const [i, name] of customers.entries()) await customerWrites(number.phoneNumberId, waIds[i], 'Hello!', name);
  await expect
    .poll(async () => (await call<{ items: unknown[] }>('GET', `/workspace/${w}/contacts?search=${prefix}`)).items.length, { timeout: 20_000 })
    .toBe(customers.length);
  const segmentName = `Customers ${stamp}`;
  await call('POST', '/segment', {
    name: segmentName,
    filters: [{ column: 'phoneNumber', value: `+${prefix}`, operator: 'STARTS_WITH', conjuction: 'AND' }],
    workspaceId: w,
  });
  return { admin, call, accountId, phoneNumberId: number.phoneNumberId, phoneNumber: number.phoneNumber, templateName, segmentName, waIds };
}

async function newCampaignUi(page: Page, name: string, type: 'One-time' | 'Recurring' = 'One-time') {
  await page.goto('/campaigns');
  await page.getByRole('button', { name: 'New campaign' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New campaign' });
  await dialog.getByLabel('Name').fill(name);
  if (type === 'Recurring') {
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Recurring' }).click();
  }
  await dialog.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page.getByRole('region', { name: 'Add a step' })).toBeVisible();
}

const node = (page: Page, kind: string) => page.locator('.react-flow__node', { hasText: kind });

async function deployNow(page: Page) {
  await page.getByRole('button', { name: 'Deploy' }).click();
  const dialog = page.getByRole('dialog', { name: /^Deploy/ });
  await dialog.getByRole('button', { name: 'Deploy now' }).click();
  await expect(dialog).toHaveCount(0);
}

/** After deploy: the customers got the first template; the counts and logs say so. */
async function expectDelivered(page: Page, ws: Workspace) {
  await expect.poll(async () => (await templatesSentTo(ws.waIds)).length, { timeout: 45_000 }).toBe(ws.waIds.length);
  const sent = await templatesSentTo(ws.waIds);
  expect(new Set(sent.map((m) => m.waId)).size).toBe(ws.waIds.length);
  expect(sent.every((m) => m.body.template?.name === ws.templateName)).toBe(true);
  await expect(page.getByTestId('count-recipients')).toHaveText(String(ws.waIds.length), { timeout: 30_000 });
  await expect(page.getByTestId('count-sent')).toHaveText(String(ws.waIds.length), { timeout: 30_000 });
  const logs = page.getByRole('table', { name: 'Campaign logs' });
  for (const waId of ws.waIds) await expect(logs.getByText(`+${waId}`)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('count-delivered')).toHaveText(String(ws.waIds.length), { timeout: 30_000 });
}

test('build a campaign with the mouse, deploy it, and watch it arrive', async ({ page }) => {
  const ws = await seed(['Grace Hopper', 'Alan Turing']);
  await signInUi(page, ws.admin, '/campaigns');
  await newCampaignUi(page, 'Winter sale (mouse)');
  const palette = page.getByRole('region', { name: 'Add a step' });
  const pane = page.locator('.react-flow__pane');

  // The trigger is dragged onto the canvas; the segment shows its live count.
  await palette.getByRole('button', { name: /Segment trigger/ }).dragTo(pane, { targetPosition: { x: 200, y: 60 } });
  await node(page, 'One-time trigger').getByLabel('Audience segment').selectOption({ label: ws.segmentName });
  await expect(node(page, 'One-time trigger').getByText('2 contacts in this segment now')).toBeVisible();

  // A click adds a step after the selected one.
  await palette.getByRole('button', { name: /Send template/ }).click();
  const send = node(page, 'Send WhatsApp').first();
  await expect(send.getByText('This field cannot be empty')).toHaveCount(2);
  await send.getByLabel('WhatsApp number').selectOption({ label: ws.phoneNumber });
  await send.getByLabel('Template').selectOption({ label: `${ws.templateName} (en_US)` });
  await send.getByLabel('Value of {{1}} body').selectOption('name');
  await expect(send.getByRole('figure', { name: 'WhatsApp preview' })).toContainText('Hi ‹Name›, our winter sale starts today.');

  await palette.getByRole('button', { name: /^Delay/ }).click();
  await node(page, 'Delay').getByLabel('Wait for').fill('2');
  await node(page, 'Delay').getByLabel('Unit').selectOption('hours');

  // The last step is dropped apart and joined by dragging from the delay's handle to its own.
  await page.getByRole('button', { name: 'Fit view' }).click();
  const box = (await pane.boundingBox())!;
  await palette.getByRole('button', { name: /Send template/ }).dragTo(pane, { targetPosition: { x: box.width - 180, y: 40 } });
  const second = node(page, 'Send WhatsApp').nth(1);
  await second.getByLabel('WhatsApp number').selectOption({ label: ws.phoneNumber });
  await second.getByLabel('Template').selectOption({ label: `${ws.templateName} (en_US)` });
  await second.getByLabel('Source of {{1}} body').selectOption('text');
  await second.getByLabel('Value of {{1}} body').fill('friend');
  await page.getByRole('button', { name: 'Fit view' }).click();
  await node(page, 'Delay').locator('.react-flow__handle.source').hover();
  await page.mouse.down();
  await second.locator('.react-flow__handle.target').hover();
  await page.mouse.up();

  await expect(page.getByText('Ready to deploy')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /saved/ })).toHaveText('All changes saved', { timeout: 10_000 });
  // The steps survive a reload (autosave).
  await page.reload();
  await expect(page.getByRole('region', { name: /Steps \(4\)/ })).toBeVisible();

  await deployNow(page);
  await expect(page.getByText('In progress')).toBeVisible();
  await expectDelivered(page, ws);
  // Locked after deploy.
  await page.getByRole('tab', { name: 'Steps' }).click();
  await expect(page.getByText('Deployed: the steps are locked (the name can still change)')).toBeVisible();
  await expect(node(page, 'One-time trigger').getByLabel('Audience segment')).toBeDisabled();
});

test('build a campaign with the keyboard only, deploy it, and watch it arrive', async ({ page }) => {
  const ws = await seed(['Katherine Johnson', 'Dorothy Vaughan']);
  await signInUi(page, ws.admin, '/campaigns');
  await newCampaignUi(page, 'Winter sale (keyboard)');
  const palette = page.getByRole('region', { name: 'Add a step' });
  const press = (key: string) => page.keyboard.press(key);

  // Enter on a palette entry adds the step and puts the keyboard in its first field.
  await palette.getByRole('button', { name: /Segment trigger/ }).focus();
  await press('Enter');
  await expect(node(page, 'One-time trigger').getByLabel('Audience segment')).toBeFocused();
  await page.keyboard.type(ws.segmentName);
  await expect(node(page, 'One-time trigger').getByText('2 contacts in this segment now')).toBeVisible();

  await palette.getByRole('button', { name: /Send template/ }).focus();
  await press('Enter');
  const send = node(page, 'Send WhatsApp').first();
  await expect(send.getByLabel('WhatsApp number')).toBeFocused();
  await page.keyboard.type(ws.phoneNumber);
  await press('Tab');
  await expect(send.getByLabel('Template')).toBeFocused();
  await page.keyboard.type(ws.templateName);
  await press('Tab'); // source of {{1}}: contact field
  await press('Tab');
  await expect(send.getByLabel('Value of {{1}} body')).toBeFocused();
  await page.keyboard.type('Name');
  await expect(send.getByRole('figure', { name: 'WhatsApp preview' })).toContainText('Hi ‹Name›');

  await palette.getByRole('button', { name: /^Delay/ }).focus();
  await press('Enter');
  await expect(node(page, 'Delay').getByLabel('Wait for')).toBeFocused();
  await press('Control+A');
  await page.keyboard.type('1');
  await press('Tab');
  await page.keyboard.type('Days');

  await palette.getByRole('button', { name: /Send template/ }).focus();
  await press('Enter');
  const second = node(page, 'Send WhatsApp').nth(1);
  await expect(second.getByLabel('WhatsApp number')).toBeFocused();
  await page.keyboard.type(ws.phoneNumber);
  await press('Tab');
  await page.keyboard.type(ws.templateName);
  await press('Tab');
  await page.keyboard.type('Fixed');
  await press('Tab');
  await page.keyboard.type('friend');

  // Every step is in the node list, joined in order.
  const steps = page.getByRole('region', { name: /Steps \(4\)/ });
  await expect(steps.getByRole('combobox', { name: 'Next step after One-time trigger' })).toHaveValue(/.+/);
  await expect(page.getByText('Ready to deploy')).toBeVisible();

  await page.getByRole('button', { name: 'Deploy' }).focus();
  await press('Enter');
  const dialog = page.getByRole('dialog', { name: /^Deploy/ });
  await dialog.getByRole('button', { name: 'Deploy now' }).focus();
  await press('Enter');
  await expect(dialog).toHaveCount(0);
  await expectDelivered(page, ws);
});

test('a recurring campaign runs when another system calls its trigger URL with its key', async ({ page }) => {
  const ws = await seed(['Margaret Hamilton']);
  const w = ws.admin.workspaceId;
  const campaign = await ws.call<{ id: string }>('POST', '/campaign', { workspaceId: w, type: 'recurring', name: 'Order ready' });
  await ws.call('PATCH', `/campaign/${campaign.id}`, {
    rfInstance: {
      nodes: [
        { id: 'trigger', type: 'RecurringTriggerNode', position: { x: 0, y: 0 }, data: { label: 'API call', attributeMapping: [] } },
        {
          id: 'send',
          type: 'SendWhatsappNode',
          position: { x: 0, y: 300 },
          data: {
            label: 'Send template',
            whatsappAccountId: ws.accountId,
            whatsappTemplateId: await templateId(ws),
            variables: [{ id: 'v1', component: 'BODY', variable: '1', source: 'field', value: 'name', fallback: 'there' }],
          },
        },
      ],
      edges: [{ id: 'e1', source: 'trigger', target: 'send' }],
    },
  });
  await signInUi(page, ws.admin, '/campaigns');
  await page.goto(`/campaigns/${campaign.id}`);
  await deployNow(page);
  const key = (await page.getByTestId('trigger-key').textContent())!.trim();
  expect(key.length).toBeGreaterThan(20);
  const curl = (await page.getByRole('region', { name: 'Trigger URL and key' }).locator('pre').textContent())!;
  expect(curl).toContain(`Authorization: Bearer ${key}`);

  // Another system calls the trigger with curl and the key (no ID token).
  const newCustomer = `4478${String(Date.now()).slice(-8)}`; // a valid UK mobile: +44 7xxx xxxxxx
  const out = execFileSync('curl', [
    '-sS', '-X', 'POST', `${stack.apiUrl}/outbound/${campaign.id}`,
    '-H', `Authorization: Bearer ${key}`,
    '-H', 'Content-Type: application/json',
    '-d', JSON.stringify([{ phoneNumber: `+${newCustomer}`, name: 'Mary Jackson' }, { phoneNumber: 'not a phone' }]),
  ]).toString();
  const answer = JSON.parse(out) as { queued: number; rejected: number };
  expect(answer, out).toMatchObject({ queued: 1, rejected: 1 });
  await expect.poll(async () => (await templatesSentTo([newCustomer])).length, { timeout: 30_000 }).toBe(1);

  // A wrong key is refused.
  const refused = execFileSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', `${stack.apiUrl}/outbound/${campaign.id}`,
    '-H', 'X-Parley-Key: wrong', '-H', 'Content-Type: application/json', '-d', '[{"phoneNumber":"+14155550100"}]']).toString();
  expect(refused).toBe('401');
});

test('a customer who sends STOP is skipped by the next campaign', async ({ page }) => {
  const ws = await seed(['Hedy Lamarr', 'Ada Byron']);
  const [stopper, stays] = ws.waIds;
  await customerWrites(ws.phoneNumberId, stopper, 'STOP', 'Hedy Lamarr');
  await signInUi(page, ws.admin, '/audience');
  const table = page.getByTestId('contacts-scroller');
  await expect(table.getByText('Hedy Lamarr').locator('xpath=ancestor::tr')).toContainText('Opted out', { timeout: 20_000 });

  const campaign = { id: await sendCampaign(ws, 'After STOP') };
  await page.goto(`/campaigns/${campaign.id}`);
  await deployNow(page);
  await expect.poll(async () => (await templatesSentTo([stays])).length, { timeout: 45_000 }).toBe(1);
  await expect(page.getByTestId('count-optedOut')).toHaveText('1', { timeout: 30_000 });
  await page.getByTestId('count-optedOut').click();
  const logs = page.getByRole('table', { name: 'Campaign logs' });
  await expect(logs.getByText(`+${stopper}`).locator('xpath=ancestor::tr')).toContainText('opted out');
  expect(await templatesSentTo([stopper])).toHaveLength(0);

  // An agent opts the customer back in from the audience.
  await page.goto('/audience');
  await page.getByRole('button', { name: 'Opt Hedy Lamarr back in to campaigns' }).click();
  await expect(table.getByText('Hedy Lamarr').locator('xpath=ancestor::tr')).toContainText('Subscribed');
});

test('a campaign halted by a paused template shows the code and words, and resumed finishes', async ({ page }) => {
  const ws = await seed(['Katherine Johnson', 'Dorothy Vaughan']);
  const campaign = { id: await sendCampaign(ws, 'Paused template') };
  // Meta pauses the template for low quality; its webhook has not reached Parley, so the sends meet it first.
  await sandbox.setTemplateStatus(ws.templateName, 'PAUSED', undefined, { webhook: false });
  await signInUi(page, ws.admin, `/campaigns/${campaign.id}`);
  await deployNow(page);

  // Halted, not failed: the page says WhatsApp's code and words, and nobody was sent anything.
  await expect(page.getByText(`halted by WhatsApp (132015): Template ${ws.templateName} is paused because of low quality.`)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Paused', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('count-failed')).toHaveText('0');
  expect(await templatesSentTo(ws.waIds)).toHaveLength(0);

  // Meta approves it again; resume sends every customer once and the campaign finishes.
  await sandbox.setTemplateStatus(ws.templateName, 'APPROVED');
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByText('Completed', { exact: true }).first()).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText(/halted by WhatsApp/)).toHaveCount(0);
  const sent = await templatesSentTo(ws.waIds);
  expect(sent.map((m) => m.waId).sort()).toEqual([...ws.waIds].sort());
  await expect(page.getByTestId('count-sent')).toHaveText('2', { timeout: 30_000 });
});

/** Serious or critical axe findings (WCAG 2.1 A/AA and best practice), one line each. */
async function axeFindings(page: Page, label: string): Promise<string[]> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: [${v.impact}] ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}`).join('\n')}`)
    .map((line) => {
      console.log(line);
      return line;
    });
}

test('the canvas and the results page have no serious accessibility violation, light and dark', async ({ browser }) => {
  // Eight pages audited in two themes: minutes on a loaded 2-core machine.
  test.setTimeout(480_000);
  const ws = await seed(['Grace Hopper']);
  const c = { id: await sendCampaign(ws, 'Audit', [{ id: 'delay', type: 'DelayNode', position: { x: 0, y: 600 }, data: { label: 'Wait', waitFor: null, waitForUnit: 'hours' } }]) };
  const done = { id: await sendCampaign(ws, 'Audit sent') };
  await ws.call('POST', `/campaign/${done.id}/deploy`, {});
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, colorScheme, baseURL: stack.webUrl });
    const page = await context.newPage();
    try {
      await signInUi(page, ws.admin, '/campaigns');
      found.push(...(await axeFindings(page, `campaigns ${colorScheme}`)));
      await page.goto(`/campaigns/${c.id}`);
      await expect(page.getByRole('region', { name: /Steps \(3\)/ })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('1 contact in this segment now')).toBeVisible({ timeout: 30_000 });
      found.push(...(await axeFindings(page, `canvas ${colorScheme}`)));
      await page.getByRole('button', { name: 'Deploy' }).click();
      await page.getByRole('dialog', { name: /^Deploy/ }).getByRole('button', { name: 'Deploy now' }).click();
      await expect(page.getByRole('dialog', { name: /^Deploy/ }).getByRole('alert')).toBeVisible({ timeout: 30_000 });
      found.push(...(await axeFindings(page, `deploy problems ${colorScheme}`)));
      await page.goto(`/campaigns/${done.id}`);
      await expect(page.getByRole('table', { name: 'Campaign logs' })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('results-chart').locator('.recharts-surface').last()).toBeVisible({ timeout: 30_000 });
      found.push(...(await axeFindings(page, `results ${colorScheme}`)));
    } finally {
      await context.close();
    }
  }
  expect(found, found.join('\n')).toEqual([]);
});

/**
 * A one-time campaign to the workspace's segment: its trigger, then a send of the workspace's template (with its
 * variable filled), then `more` steps left unconnected. Answers its id.
 */
async function sendCampaign(ws: Workspace, name: string, more: Record<string, unknown>[] = []): Promise<string> {
  const w = ws.admin.workspaceId;
  const segments = await ws.call<{ items: { id: string; name: string }[] }>('GET', `/workspace/${w}/segments?limit=200`);
  const segmentId = segments.items.find((s) => s.name === ws.segmentName)!.id;
  const campaign = await ws.call<{ id: string }>('POST', '/campaign', { workspaceId: w, type: 'oneTime', name });
  await ws.call('PATCH', `/campaign/${campaign.id}`, {
    rfInstance: {
      nodes: [
        { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Audience', segmentId } },
        {
          id: 'send',
          type: 'SendWhatsappNode',
          position: { x: 0, y: 300 },
          data: {
            label: 'Send template',
            whatsappAccountId: ws.accountId,
            whatsappTemplateId: await templateId(ws),
            variables: [{ id: 'v1', component: 'BODY', variable: '1', source: 'text', value: 'friend' }],
          },
        },
        ...more,
      ],
      edges: [{ id: 'e1', source: 'trigger', target: 'send' }],
    },
  });
  return campaign.id;
}

async function templateId(ws: Workspace): Promise<string> {
  const page = await ws.call<{ items: { id: string; name: string }[] }>('GET', `/workspace/${ws.admin.workspaceId}/whatsapp-templates?limit=200`);
  return page.items.find((t) => t.name === ws.templateName)!.id;
}

/**
 * The README's pictures of the campaign canvas and the results page, at 1440 and 1024 px, into
 * docs/screenshots (campaign-canvas*.png, campaign-results*.png). Taken on request only:
 * `PARLEY_CAMPAIGN_SCREENSHOTS=1 npx playwright test -c tests/e2e/playwright.config.ts campaigns.spec.ts -g screenshots`.
 */
test('screenshots of the campaign canvas and results', async ({ page }) => {
  test.skip(process.env.PARLEY_CAMPAIGN_SCREENSHOTS !== '1', 'pictures for the README, taken on request');
  const ws = await seed(['Grace Hopper', 'Alan Turing', 'Katherine Johnson']);
  const w = ws.admin.workspaceId;
  const segments = await ws.call<{ items: { id: string; name: string }[] }>('GET', `/workspace/${w}/segments?limit=200`);
  const segmentId = segments.items.find((s) => s.name === ws.segmentName)!.id;
  const whatsappTemplateId = await templateId(ws);
  const canvas = (label: string) => ({
    nodes: [
      { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 40, y: 0 }, data: { label: 'Audience', segmentId } },
      {
        id: 'send1', type: 'SendWhatsappNode', position: { x: 0, y: 190 },
        data: { label: 'Winter sale', whatsappAccountId: ws.accountId, whatsappTemplateId, variables: [{ id: 'v1', component: 'BODY', variable: '1', source: 'field', value: 'name', fallback: 'there' }] },
      },
      { id: 'delay', type: 'DelayNode', position: { x: 460, y: 190 }, data: { label: 'Wait', waitFor: 2, waitForUnit: 'days' } },
      { id: 'send2', type: 'SendWhatsappNode', position: { x: 460, y: 400 }, data: { label, whatsappAccountId: ws.accountId, whatsappTemplateId: '', variables: [] } },
    ],
    edges: [
      { id: 'e1', source: 'trigger', target: 'send1' },
      { id: 'e2', source: 'send1', target: 'delay' },
      { id: 'e3', source: 'delay', target: 'send2' },
    ],
  });
  const draft = await ws.call<{ id: string }>('POST', '/campaign', { workspaceId: w, type: 'oneTime', name: 'Winter sale' });
  await ws.call('PATCH', `/campaign/${draft.id}`, { rfInstance: canvas('Reminder') });
  const sent = await ws.call<{ id: string }>('POST', '/campaign', { workspaceId: w, type: 'oneTime', name: 'Black Friday' });
  const done = canvas('Reminder');
  done.nodes = done.nodes.slice(0, 2);
  done.edges = done.edges.slice(0, 1);
  await ws.call('PATCH', `/campaign/${sent.id}`, { rfInstance: done });
  await ws.call('POST', `/campaign/${sent.id}/deploy`, {});
  await expect.poll(async () => (await templatesSentTo(ws.waIds)).length, { timeout: 45_000 }).toBe(ws.waIds.length);

  await signInUi(page, ws.admin, "/campaigns");
  for (const width of [1440, 1024]) {
    const suffix = width === 1440 ? '' : '-1024';
    await page.setViewportSize({ width, height: 860 });
    await page.goto(`/campaigns/${draft.id}`);
    await expect(page.getByRole('region', { name: /Steps \(4\)/ })).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Fit view' }).click();
    await expect(page.getByRole('status').filter({ hasText: /saved|changes/ })).toHaveText('All changes saved', { timeout: 10_000 });
    await page.screenshot({ path: `docs/screenshots/campaign-canvas${suffix}.png` });
    await page.setViewportSize({ width, height: 1180 });
    await page.goto(`/campaigns/${sent.id}`);
    await expect(page.getByTestId('count-sent')).toHaveText(String(ws.waIds.length), { timeout: 30_000 });
    await expect(page.getByRole('table', { name: 'Campaign logs' })).toBeVisible();
    await expect(page.getByTestId('results-chart').locator('.recharts-surface').last()).toBeVisible({ timeout: 30_000 });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `docs/screenshots/campaign-results${suffix}.png` });
    await page.setViewportSize({ width, height: 860 });
    await page.goto('/campaigns');
    await expect(page.getByRole('table', { name: 'Campaigns' })).toBeVisible();
    await page.screenshot({ path: `docs/screenshots/campaigns-list${suffix}.png` });
  }
});
