import { createAdmin, expect, signInUi, test, uniqueEmail, verificationLink, verifyAddress } from './support/fixtures';

test('sign up, verify the e-mail without reloading, land in the inbox', async ({ page }) => {
  const email = uniqueEmail('signup');
  await page.goto('/signup');

  // The spec's messages show inline before anything is sent.
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Please enter your name')).toBeVisible();
  await expect(page.getByText('Please enter name of your organization')).toBeVisible();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await page.getByLabel('Work email').fill('someone@gmail.com');
  await expect(page.getByText('Please use your official email. Public emails are not supported')).toBeVisible();

  await page.getByLabel('Your name').fill('Grace Hopper');
  await page.getByLabel('Organization').fill('Hopper Labs');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('correct-horse-1');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/verify-email-address/);
  await expect(page.getByText(email)).toBeVisible();
  // The unverified user counts as signed out: the inbox sends them to the login.
  await expect.poll(() => verificationLink(email)).toBeTruthy();

  // The user clicks the link in the e-mail (in another tab); this page notices by itself.
  await verifyAddress(email);
  await expect(page).toHaveURL(/\/live-chat\?tab=closed/, { timeout: 15_000 });
  await expect(page.getByRole('button', { name: /^Hopper Labs.*switch workspace$/ })).toBeVisible();
});

test('signed-in routes send a guest to the login and back after signing in', async ({ page }) => {
  const admin = await createAdmin();
  await page.goto('/settings/attributes');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsettings%2Fattributes/);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Incorrect email or password');
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/settings\/attributes$/);

  // Guest-only screens send a signed-in user to the inbox.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/live-chat\?tab=closed/);

  // Sign-out clears the session: the inbox is closed again.
  await page.getByRole('button', { name: /account menu$/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/templates');
  await expect(page).toHaveURL(/\/login\?redirect=%2Ftemplates/);
});

test('unknown addresses show Not Found', async ({ page }) => {
  const admin = await createAdmin();
  await signInUi(page, admin);
  await page.goto('/no-such-screen');
  await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible();
});
