/** Helpers of the canvas specs: open an editor after signing in, and its screenshots at 1024 and 1440 px. */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Signs in on the login screen and waits for the editor (loaded lazily, which takes a while on a busy machine). */
export async function openCanvas(page: Page, account: { email: string; password: string }, editorPath: string) {
  await page.goto(`/login?redirect=${encodeURIComponent(editorPath)}`, { waitUntil: 'commit' });
  await page.getByLabel('Email').fill(account.email, { timeout: 60_000 });
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('region', { name: /^Steps/ })).toBeVisible({ timeout: 60_000 });
}

/** With PARLEY_SCREENSHOTS=1: docs/screenshots/<name>.png at 1440 px and docs/screenshots/1024/<name>.png, after Fit view. */
export async function canvasScreenshots(page: Page, name: string) {
  if (process.env.PARLEY_SCREENSHOTS !== '1') return;
  const before = page.viewportSize();
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: width === 1024 ? 768 : 900 });
    await page.getByRole('button', { name: 'Fit view', exact: true }).click();
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.resolve('docs/screenshots', width === 1024 ? '1024' : '', `${name}.png`) });
  }
  if (before) await page.setViewportSize(before);
}
