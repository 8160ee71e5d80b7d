/**
 * Fixtures and helpers for e2e specs (H5's and H6's). Import `test` and `expect` from here instead of
 * @playwright/test:
 *
 *   import { test, expect, stack, uniqueEmail, createAdmin, signInUi, adminApi, sandbox } from './support/fixtures';
 *   test('...', async ({ page }) => { const admin = await createAdmin(); await signInUi(page, admin); ... });
 *
 * `page` starts at the stack's web URL (baseURL), so `page.goto('/login')` works.
 */
import { type Locator, type Page, expect, test as base } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { signInWithPassword } from '../../../scripts/lib/identity-rest';
import { listOobCodes, verifyEmail } from '../../support/identity-rest';

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the e2e suite through playwright (tests/e2e/support/global-setup.ts)`);
  return v;
}

/** Where the stack runs (set by the global setup). */
export const stack = {
  get webUrl() {
    return need('PARLEY_E2E_WEB_URL');
  },
  get apiUrl() {
    return need('PARLEY_E2E_API_URL');
  },
  get emulatorHost() {
    return need('PARLEY_E2E_AUTH_EMULATOR');
  },
  get sandboxOrigin(): string {
    return need('PARLEY_E2E_SANDBOX_ORIGIN');
  },
  get sandboxAccount(): { phoneNumber: string; phoneNumberId: string; wabaAccountId: string; appId: string; token: string } {
    return JSON.parse(need('PARLEY_E2E_SANDBOX_ACCOUNT'));
  },
};

export const test = base.extend({
  // Playwright fixtures take their dependencies as a destructured first argument; this one has none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    await use(stack.webUrl);
  },
});
export { expect };

/** An address on an official (non-public) domain, unique per call. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${Date.now().toString(36)}-${randomUUID().slice(0, 6)}@parley-e2e.com`;
}

export interface Account {
  email: string;
  password: string;
  name: string;
  organizationName: string;
}

/** The newest e-mail verification link the emulator issued for this address (what the user would click). */
export async function verificationLink(email: string): Promise<string | undefined> {
  const codes = await listOobCodes(stack.emulatorHost);
  return codes.filter((c) => c.requestType === 'VERIFY_EMAIL' && c.email.toLowerCase() === email.toLowerCase()).at(-1)?.oobLink;
}

/** Applies the newest verification code of the address (as clicking the e-mailed link does). */
export async function verifyAddress(email: string): Promise<void> {
  await verifyEmail(stack.emulatorHost, email);
}

async function serverCall<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(stack.apiUrl + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** A workspace admin with a verified e-mail, created through the server's sign-up (fast path for specs). */
export async function createAdmin(overrides: Partial<Account> = {}): Promise<Account & { workspaceId: string }> {
  const account: Account = {
    email: uniqueEmail('admin'),
    password: 'parley-e2e-pass-1',
    name: 'Ada Admin',
    organizationName: `Acme ${randomUUID().slice(0, 4)}`,
    ...overrides,
  };
  const member = await serverCall<{ currentWorkspaceId: string }>('POST', '/auth/sign-up', account);
  await verifyAddress(account.email);
  return { ...account, workspaceId: member.currentWorkspaceId };
}

/** Calls the server as `account` (a fresh ID token each time), for arranging data a spec does not test. */
export async function adminApi(account: { email: string; password: string }) {
  const { idToken } = await signInWithPassword(stack.emulatorHost, account.email, account.password);
  return <T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
    serverCall<T>(method, path, body, idToken);
}

/** Signs in through the login screen and waits for the inbox. */
export async function signInUi(page: Page, account: { email: string; password: string }, redirect?: string): Promise<void> {
  await page.goto(redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

/** Chooses `option` in one of the app's styled selects (Radix Select: a combobox that opens a listbox). */
export async function pick(page: Page, combobox: Locator, option: string): Promise<void> {
  await combobox.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(combobox).toHaveText(option);
}

export type SandboxNumber = NonNullable<typeof stack.sandboxAccount>;

/**
 * A fresh WhatsApp number of the sandbox (a number connects to one workspace only, so specs that connect one
 * take their own). Connect it with `connectNumber(account, admin)` or through the UI.
 */
export async function newSandboxNumber(): Promise<SandboxNumber> {
  const res = await fetch(`${need('PARLEY_E2E_CONTROL_URL')}/sandbox/accounts`, { method: 'POST' });
  if (!res.ok) throw new Error(`the e2e stack could not add a sandbox number: ${res.status}`);
  return (await res.json()) as SandboxNumber;
}

/** Connects a fresh sandbox number to the admin's workspace through the API; answers the account. */
export async function connectNumber(admin: { email: string; password: string; workspaceId: string }) {
  const number = await newSandboxNumber();
  const call = await adminApi(admin);
  const account = await call<{ id: string; phoneNumber: string }>('POST', '/whatsapp', {
    phoneNumber: number.phoneNumber,
    wabaAccountId: number.wabaAccountId,
    appId: number.appId,
    phoneNumberId: number.phoneNumberId,
    token: number.token,
    workspaceId: admin.workspaceId,
  });
  return { ...account, number };
}

/** The sandbox's control endpoints (customers writing in, template review outcomes ...). */
export const sandbox = {
  async customerSays(waId: string, text: string, name?: string): Promise<{ id: string }> {
    return sandboxCall('POST', `/_sandbox/customers/${encodeURIComponent(waId)}/messages`, { type: 'text', text, name });
  },
  /** The same to one of several sandbox numbers. */
  async customerSaysTo(phoneNumberId: string, waId: string, text: string, name?: string): Promise<{ id: string }> {
    return sandboxCall('POST', `/_sandbox/customers/${encodeURIComponent(waId)}/messages`, { type: 'text', text, name, phoneNumberId });
  },
  /** `webhook: false`: Meta changed it, its webhook has not reached Parley (sends meet the new status first). */
  async setTemplateStatus(name: string, status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'PAUSED' | 'DISABLED', reason?: string, opts: { webhook?: boolean } = {}) {
    return sandboxCall('POST', `/_sandbox/templates/${encodeURIComponent(name)}/status`, { status, reason, ...opts });
  },
  /** A template made in WhatsApp Manager (at Meta only, until Parley syncs). */
  async seedTemplate(phoneNumberId: string, name: string, opts: { status?: string; category?: string } = {}) {
    return sandboxCall('POST', '/_sandbox/templates', { phoneNumberId, name, ...opts });
  },
  /** A number's health changes at Meta; its phone_number_quality_update webhook follows. */
  async setNumberHealth(phoneNumberId: string, change: { qualityRating?: string; messagingLimitTier?: string; throughputLevel?: string }) {
    return sandboxCall('POST', `/_sandbox/accounts/${encodeURIComponent(phoneNumberId)}/health`, change);
  },
  async state(): Promise<{ sent: unknown[]; received: unknown[]; templates: { name: string; status: string }[] }> {
    return sandboxCall('GET', '/_sandbox/state');
  },
};

async function sandboxCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  if (!stack.sandboxOrigin) throw new Error('the e2e stack runs without the sandbox');
  const res = await fetch(stack.sandboxOrigin + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}
