/**
 * Accessibility sweep: every screen (and every dialog and menu worth a look) in light and dark, at 1440×900 and
 * 1024×700, checked with axe-core. A serious or critical violation fails the suite. Each theme/size pair is one
 * browser context over one seeded workspace, so the sweep costs one sign-in per pair, not one per screen.
 *
 * `PARLEY_A11Y_SHOTS=<dir>` also saves a screenshot of each screen (`<screen>-<width>-<theme>.png`) so a person can
 * look at them; `npm run screenshots` writes the 1024 px ones into docs/screenshots.
 */
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { adminApi, connectNumber, createAdmin, expect, signInUi, stack, test, sandbox } from './support/fixtures';

interface Seeded {
  admin: Awaited<ReturnType<typeof createAdmin>>;
  /** The invitation's secret token: what the e-mailed link carries. */
  inviteToken: string;
  campaignId: string;
  botId: string;
  conversationId: string;
}

const customerWrites = sandbox.customerSaysTo;

/** One workspace with something on every screen: numbers, attributes, segments, bots, campaigns, invitations, chats. */
async function seed(): Promise<Seeded> {
  const admin = await createAdmin({ name: 'Ada Lovelace', organizationName: 'Northwind Support' });
  const call = await adminApi(admin);
  const w = admin.workspaceId;
  const { number, id: whatsappAccountId } = await connectNumber(admin);
  for (const a of [
    { name: 'plan', description: 'Subscription plan', format: 'text' },
    { name: 'orders', description: 'Orders placed', format: 'number' },
  ]) {
    await call('POST', '/attribute', { ...a, type: 'contact', workspaceId: w });
  }
  await call('POST', '/segment', {
    name: 'Gold customers',
    filters: [{ column: 'plan', value: 'gold', operator: 'IS', conjuction: 'AND' }],
    workspaceId: w,
  });
  const bot = await call<{ id: string }>('POST', '/bot', { workspaceId: w, title: 'Order status helper' });
  const campaign = await call<{ id: string }>('POST', '/campaign', { workspaceId: w, type: 'oneTime', name: 'Winter sale' });
  await call('POST', '/invitee', { email: 'grace@northwind-e2e.com', role: 'agent', workspaceId: w });
  const invites = await call<{ items: { id: string; token: string }[] }>('GET', `/workspace/${w}/invitees`);

  const stamp = String(Date.now()).slice(-5);
  await call('POST', '/whatsapp-template', {
    name: `order_shipped_${stamp}`,
    language: 'en_US',
    category: 'UTILITY',
    components: [
      { type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.', example: { body_text: [['Ada', 'A100']] } },
      { type: 'FOOTER', text: 'Northwind Support' },
    ],
    whatsappAccountId,
    workspaceId: w,
  });
  await customerWrites(number.phoneNumberId, `4917${stamp}01`, 'Hi! Where is my order #1042? Tracking: https://northwind.example/track/1042', 'Maximilian Alexander Wolfeschlegelsteinhausenbergerdorff-Smith');
  await customerWrites(number.phoneNumberId, `4917${stamp}02`, 'Can I change the delivery address?', 'Grace Hopper');
  let conversationId = '';
  await expect
    .poll(async () => {
      const page = await call<{ items: { id: string }[] }>('GET', `/workspace/${w}/conversations?tab=open`);
      conversationId = page.items.at(-1)?.id ?? '';
      return page.items.length;
    }, { timeout: 15_000 })
    .toBe(2);
  // A long message (collapsed behind "Read more") and an agent's reply (the outbound bubble, with ticks).
  await customerWrites(number.phoneNumberId, `4917${stamp}01`, `Some more detail about the order: ${'the parcel was left at the wrong door, '.repeat(24)}thanks.`, 'Maximilian Alexander Wolfeschlegelsteinhausenbergerdorff-Smith');
  await call('POST', '/message', { conversationId, text: 'Sorry about that! It ships today: https://northwind.example/track/1042' });
  return { admin, inviteToken: invites.items[0].token, campaignId: campaign.id, botId: bot.id, conversationId };
}

type Step = { name: string; go: (page: Page, s: Seeded) => Promise<void> };

const dialogNamed = (page: Page, name: string) => page.getByRole('dialog', { name });

/** Screens a signed-out visitor sees (guest pages redirect a signed-in user, so these run first). */
const publicScreens: Step[] = [
  { name: 'landing', go: async (page) => void (await page.goto('/')) },
  { name: 'login', go: async (page) => void (await page.goto('/login')) },
  {
    name: 'signup-errors',
    go: async (page) => {
      await page.goto('/signup');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByRole('alert').first()).toBeVisible();
    },
  },
  { name: 'forgot-password', go: async (page) => void (await page.goto('/forgot-password')) },
  {
    name: 'invitation',
    go: async (page, s) => {
      await page.goto(`/invite/${s.inviteToken}`);
      await expect(page.getByRole('heading', { name: /Join/ })).toBeVisible();
    },
  },
];

const appScreens: Step[] = [
  {
    name: 'live-chat-closed-empty',
    go: async (page) => {
      await page.goto('/live-chat?tab=closed');
      await expect(page.getByRole('tab', { name: /Closed/ })).toBeVisible();
    },
  },
  {
    name: 'live-chat-open',
    go: async (page) => {
      await page.goto('/live-chat?tab=open');
      await expect(page.getByRole('navigation', { name: 'Conversations' }).getByRole('link').first()).toBeVisible();
    },
  },
  {
    name: 'conversation',
    go: async (page, s) => {
      await page.goto(`/live-chat/${s.conversationId}`);
      await expect(page.getByRole('region', { name: 'Messages' }).getByRole('article').first()).toBeVisible();
    },
  },
  {
    name: 'conversation-assign-menu',
    go: async (page) => {
      await page.getByRole('button', { name: /^Assign/ }).click();
      await expect(page.getByRole('menuitem', { name: 'Assign to me' })).toBeVisible();
    },
  },
  {
    name: 'conversation-long-name',
    go: async (page) => {
      await page.keyboard.press('Escape');
      await page.goto('/live-chat?tab=open');
      await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /Maximilian/ }).click();
      await expect(page.getByRole('region', { name: 'Messages' }).getByRole('article').first()).toBeVisible();
    },
  },
  {
    name: 'audience',
    go: async (page) => {
      await page.goto('/audience');
      await expect(page.getByTestId('contacts-scroller').getByText('Grace Hopper')).toBeVisible();
    },
  },
  {
    name: 'audience-edit-contact',
    go: async (page) => {
      await page.getByRole('button', { name: /^Edit/ }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'audience-import-mapping',
    go: async (page) => {
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Import contacts' }).click();
      const csv = 'Phone,Name,Email,City,Country,Plan,Orders,Notes\n+14155550101,Grace Hopper,grace@example.com,Arlington,US,gold,4,first\n';
      await dialogNamed(page, 'Import contacts')
        .getByLabel('CSV file')
        .setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await expect(dialogNamed(page, 'Import contacts').getByRole('cell', { name: 'Grace Hopper' })).toBeVisible();
    },
  },
  {
    name: 'audience-import-history',
    go: async (page) => {
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: 'Import history' }).click();
    },
  },
  {
    name: 'templates',
    go: async (page) => {
      await page.goto('/templates');
      await expect(page.getByRole('table', { name: 'Templates' })).toBeVisible();
    },
  },
  {
    name: 'template-create',
    go: async (page) => {
      await page.goto('/templates/create');
      await page.getByLabel('Message').fill('Hi {{1}}, your order has shipped.');
    },
  },
  {
    name: 'campaigns',
    go: async (page) => {
      await page.goto('/campaigns');
      await expect(page.getByRole('link', { name: 'Winter sale' })).toBeVisible();
    },
  },
  {
    name: 'campaign',
    go: async (page, s) => {
      await page.goto(`/campaigns/${s.campaignId}`);
      // The campaign canvas editor.
      await expect(page.getByRole('region', { name: 'Add a step' })).toBeVisible();
    },
  },
  {
    name: 'campaign-unknown',
    go: async (page) => {
      await page.goto('/campaigns/00000000-0000-4000-8000-000000000000');
      await expect(page.getByText('Not Found')).toBeVisible();
    },
  },
  {
    name: 'automation',
    go: async (page) => {
      await page.goto('/automation');
      await expect(page.getByRole('link', { name: 'Order status helper' })).toBeVisible();
    },
  },
  {
    name: 'bot',
    go: async (page, s) => {
      await page.goto(`/automation/${s.botId}`);
      // The bot canvas editor (the canvas frame's list of steps beside the canvas).
      await expect(page.getByRole('region', { name: /^Steps/ })).toBeVisible();
    },
  },
  {
    name: 'bot-unknown',
    go: async (page) => {
      await page.goto('/automation/00000000-0000-4000-8000-000000000000');
      await expect(page.getByText('Not Found')).toBeVisible();
    },
  },
  { name: 'settings', go: async (page) => void (await page.goto('/settings')) },
  { name: 'profile', go: async (page) => void (await page.goto('/settings/profile')) },
  {
    name: 'whatsapp-accounts',
    go: async (page) => {
      await page.goto('/settings/whatsapp');
      await expect(page.getByRole('table')).toBeVisible();
    },
  },
  {
    name: 'whatsapp-connect',
    go: async (page) => {
      await page.getByRole('button', { name: 'Connect number' }).first().click();
      await page.getByRole('dialog').getByRole('button', { name: 'Connect number' }).click();
    },
  },
  {
    name: 'segments',
    go: async (page) => {
      await page.keyboard.press('Escape');
      await page.goto('/settings/segments');
    },
  },
  {
    name: 'segment-builder',
    go: async (page) => {
      await page.getByRole('button', { name: 'New segment' }).click();
      await expect(dialogNamed(page, 'New segment')).toBeVisible();
    },
  },
  {
    name: 'members',
    go: async (page) => {
      await page.keyboard.press('Escape');
      await page.goto('/settings/members');
    },
  },
  {
    name: 'members-invite',
    go: async (page) => {
      await page.getByRole('button', { name: /^Invite/ }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'attributes',
    go: async (page) => {
      await page.keyboard.press('Escape');
      await page.goto('/settings/attributes');
    },
  },
  {
    name: 'attribute-new',
    go: async (page) => {
      await page.getByRole('button', { name: 'New attribute' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'not-found',
    go: async (page) => {
      await page.keyboard.press('Escape');
      await page.goto('/no-such-screen');
    },
  },
];

const sizes = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;
const themes = ['light', 'dark'] as const;

const shotsDir = process.env.PARLEY_A11Y_SHOTS ? path.resolve(process.env.PARLEY_A11Y_SHOTS) : undefined;
if (shotsDir) mkdirSync(shotsDir, { recursive: true });

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  await expect(page.getByText('Verifying user...')).toHaveCount(0);
  // A screen with no dialog or menu open exposes its main landmark; wait for a closing dialog to hand it back.
  if ((await page.getByRole('dialog').count()) + (await page.getByRole('menu').count()) === 0) {
    await expect(page.getByRole('main')).toHaveCount(1);
  }
  // Let enter animations (dialogs, menus) finish so colours are measured at rest.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

/**
 * Rules that fail the sweep at any impact: the issues the accessibility review found, some of which
 * axe rates below serious. `label-content-name-mismatch` is experimental in axe, so it is switched on here.
 */
const alwaysEnforced = new Set(['heading-order', 'empty-table-header', 'landmark-one-main', 'label-content-name-mismatch', 'aria-hidden-focus']);

/** Runs axe on the page as it is; answers one line per serious or critical violation (and per enforced rule). */
async function audit(page: Page, label: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || alwaysEnforced.has(v.id))
    .map((v) => `${label}: [${v.impact}] ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`).join('\n')}`);
}

async function sweep(browser: Browser, s: Seeded, size: (typeof sizes)[number], theme: (typeof themes)[number]) {
  const context = await browser.newContext({ viewport: size, colorScheme: theme, baseURL: stack.webUrl });
  const page = await context.newPage();
  const found: string[] = [];
  const visit = async (step: Step) => {
    const label = `${step.name} ${size.width}px ${theme}`;
    const started = Date.now();
    try {
      await step.go(page, s);
      await settle(page);
    } catch (error) {
      // Keep sweeping: one unreachable screen should not hide the violations of the others.
      found.push(`${label}: could not reach the screen: ${(error as Error).message.split('\n')[0]}`);
      if (process.env.PARLEY_A11Y_LOG === '1') console.log(found.at(-1));
      return;
    }
    const violations = await audit(page, label);
    found.push(...violations);
    if (process.env.PARLEY_A11Y_LOG === '1') console.log(`${label} (${Date.now() - started} ms)\n${violations.join('\n')}`);
    if (shotsDir) {
      // Pictures show a screen from its top (filling a form may have scrolled it).
      await page.evaluate(() => document.getElementById('main')?.scrollTo(0, 0));
      await page.screenshot({ path: path.join(shotsDir, `${step.name}-${size.width}-${theme}.png`) });
    }
  };
  try {
    for (const step of publicScreens) await visit(step);
    await signInUi(page, s.admin, '/live-chat?tab=closed');
    for (const step of appScreens) await visit(step);
  } finally {
    await context.close();
  }
  return found;
}

// Not serial: a failing theme/size still lets the others report their violations.
test.describe.configure({ mode: 'default' });
// Traces of a sweep are large and slow to record; the violation list says what failed.
test.use({ trace: 'off' });

let seeded: Seeded;
test.beforeAll(async () => {
  seeded = await seed();
});

for (const size of sizes) {
  for (const theme of themes) {
    test(`no serious accessibility violation at ${size.width}×${size.height}, ${theme}`, async ({ browser }) => {
      // About 35 screens, each loaded, audited and (optionally) pictured: minutes on a busy 2-core machine.
      test.setTimeout(Number(process.env.PARLEY_A11Y_TIMEOUT ?? 600_000));
      const violations = await sweep(browser, seeded, size, theme);
      expect(violations, violations.join('\n')).toEqual([]);
    });
  }
}
