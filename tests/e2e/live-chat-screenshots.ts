/**
 * Screenshots of the live-chat and audience screens for docs/screenshots (light and dark):
 *   npx tsx tests/e2e/live-chat-screenshots.ts
 * Starts its own server (PGlite in a temporary directory) against the Auth emulator on 9099 (started if none
 * answers), seeds demo data (tests/e2e/live-chat-seed.ts), serves the renderer with Vite and drives Chromium.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { startAuthEmulator } from '../../scripts/lib/auth-emulator';
import { verifyEmail } from '../support/identity-rest';
import { seedLiveChat } from './live-chat-seed';
import { freePort } from './support/stack';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.join(root, 'docs/screenshots');
const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

const emulator = await startAuthEmulator({ projectId: 'demo-parley' });
const apiPort = await freePort();
const webPort = await freePort();
const apiUrl = `http://127.0.0.1:${apiPort}`;
const webUrl = `http://127.0.0.1:${webPort}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-shots-'));
process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
const { loadConfig } = await import('../../src/server/config');
const { buildApp } = await import('../../src/server/app');
const env = { ...process.env };
delete env.DATABASE_URL;
const app = await buildApp({
  config: loadConfig({
    ...env,
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    PARLEY_DATA_DIR: dataDir,
    FIREBASE_PROJECT_ID: 'demo-parley',
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    PUBLIC_URL: apiUrl,
    APP_URL: webUrl,
    SECRETS_KEY: 'parley-shots-secrets-key-0123456789',
    LOG_LEVEL: 'warn',
  }),
});
await app.listen({ port: apiPort, host: '127.0.0.1' });

const email = `ada-${Date.now()}@harbour-foods.com`;
const password = 'parley-shots-pass';
const res = await app.inject({ method: 'POST', url: '/auth/sign-up', payload: { email, password, name: 'Ada Agent', organizationName: 'Harbour Foods' } });
if (res.statusCode !== 201) throw new Error(res.body);
const member = res.json() as { id: string; currentWorkspaceId: string };
await verifyEmail(emulator.host, email);
const db = app.parley.db.db;
const { bots } = await import('../../src/server/db/schema');
const [bot] = await db
  .insert(bots)
  .values({ workspaceId: member.currentWorkspaceId, title: 'Order bot', memberId: member.id, rfInstance: { nodes: [], edges: [] } })
  .returning();
const seeded = await seedLiveChat(db, { workspaceId: member.currentWorkspaceId, memberId: member.id, botId: bot.id });

const { createServer } = await import('vite');
const react = (await import('@vitejs/plugin-react')).default;
const tailwind = (await import('@tailwindcss/vite')).default;
const vite = await createServer({
  configFile: false,
  root: path.join(root, 'src/renderer'),
  plugins: [react(), tailwind()],
  define: {
    'import.meta.env.PARLEY_API_URL': JSON.stringify(apiUrl),
    'import.meta.env.PARLEY_AUTH_EMULATOR': JSON.stringify(emulator.host),
  },
  server: { host: '127.0.0.1', port: webPort, strictPort: true, hmr: false },
  logLevel: 'warn',
});
await vite.listen();

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
fs.mkdirSync(outDir, { recursive: true });

async function session(scheme: 'light' | 'dark'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await page.goto(`${webUrl}/login`);
  await page.getByLabel('Email').fill(email, { timeout: 60_000 });
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return page;
}
const shot = async (page: Page, name: string) => {
  await page.waitForTimeout(600);
  await page.screenshot({ path: path.join(outDir, name) });
  console.log('saved', name);
};

try {
  for (const scheme of ['light', 'dark'] as const) {
    const suffix = scheme === 'dark' ? '-dark' : '';
    const page = await session(scheme);
    await page.goto(`${webUrl}/live-chat/${seeded.richConversationId}?tab=open`);
    await page.getByRole('region', { name: 'Messages' }).getByText('free of charge').waitFor();
    await shot(page, `live-chat${suffix}.png`);

    if (scheme === 'light') {
      await page.goto(`${webUrl}/live-chat?tab=open`);
      await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
      await shot(page, 'live-chat-inbox.png');

      // Scroll up to the interactive messages and open the list's options.
      await page.goto(`${webUrl}/live-chat/${seeded.richConversationId}?tab=open`);
      const messages = page.getByRole('region', { name: 'Messages' });
      await messages.getByText('free of charge').waitFor();
      await messages.evaluate((el) => (el.scrollTop = 0));
      await page.getByRole('button', { name: /Choose a slot/ }).click();
      await shot(page, 'live-chat-list-message.png');
      await page.keyboard.press('Escape');

      // Outside the 24-hour window: the composer offers an approved template.
      await page.goto(`${webUrl}/live-chat/${seeded.staleConversationId}?tab=open`);
      await page.getByRole('combobox', { name: 'Template' }).click();
      await page.getByRole('option', { name: /order_update/ }).click();
      await page.getByPlaceholder('Header value for {{1}}').fill('#1042');
      await page.getByPlaceholder('Value for {{1}}', { exact: true }).fill('Alan');
      await page.getByPlaceholder('Value for {{2}}').fill('on its way');
      await shot(page, 'live-chat-template.png');

      // Assign menu.
      await page.getByRole('button', { name: /^Assign/ }).click();
      await shot(page, 'live-chat-assign.png');
      await page.keyboard.press('Escape');
    }

    await page.goto(`${webUrl}/audience`);
    await page.getByTestId('contacts-scroller').getByText('Grace Hopper').waitFor();
    await shot(page, `audience${suffix}.png`);

    if (scheme === 'light') {
      await page.getByRole('button', { name: 'Edit Grace Hopper' }).click();
      await page.getByRole('dialog').waitFor();
      await shot(page, 'audience-edit-contact.png');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Import contacts' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import contacts' });
      await shot(page, 'audience-import-upload.png');
      const csv = ['Phone,Full name,Email,Plan,Orders', '+14155550201,Rosalind Franklin,rosalind@example.com,gold,4', '+447911123456,Barbara Liskov,,silver,2', 'n/a,Nobody,,free,0'].join('\n');
      await dialog.getByLabel('CSV file').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await dialog.getByRole('combobox', { name: 'Map column Phone' }).waitFor();
      await shot(page, 'audience-import-mapping.png');
      await dialog.getByRole('button', { name: 'Import' }).click();
      await dialog.getByText(/Import finished|The import failed/).waitFor({ timeout: 30_000 });
      await shot(page, 'audience-import-result.png');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('tab', { name: 'Import history' }).click();
      await page.getByRole('table', { name: 'Import history' }).waitFor();
      await shot(page, 'audience-import-history.png');
    }
    await page.close();
  }
} finally {
  await browser.close();
  await vite.close();
  await app.close();
  await emulator.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
