/**
 * The Auth emulator's REST calls the tests make besides signing in (scripts/lib/identity-rest.ts): sign-up,
 * e-mail verification and its out-of-band codes, through the emulator-only endpoints.
 */
import {
  IdentityRestError,
  identityToolkit,
  origin,
  type PasswordSession,
  request,
  session,
} from '../../scripts/lib/identity-rest';

export const DEFAULT_PROJECT_ID = 'demo-parley';

export type OobRequestType = 'VERIFY_EMAIL' | 'PASSWORD_RESET' | 'EMAIL_SIGNIN' | 'VERIFY_AND_CHANGE_EMAIL';

export interface OobCode {
  email: string;
  requestType: OobRequestType;
  oobCode: string;
  oobLink: string;
}

const emulatorApi = (host: string, projectId: string, resource: string) =>
  `${origin(host)}/emulator/v1/projects/${encodeURIComponent(projectId)}/${resource}`;

export async function signUpWithPassword(host: string, email: string, password: string): Promise<PasswordSession> {
  const body = await request<Partial<PasswordSession>>('POST', identityToolkit(host, 'signUp'), {
    email,
    password,
    returnSecureToken: true,
  });
  return session(body, email);
}

/** Like the client SDK's sendEmailVerification: the emulator records a VERIFY_EMAIL code (see listOobCodes). */
export async function sendEmailVerification(host: string, idToken: string): Promise<{ email: string }> {
  return request<{ email: string }>('POST', identityToolkit(host, 'sendOobCode'), {
    requestType: 'VERIFY_EMAIL',
    idToken,
  });
}

/** Every out-of-band code the emulator has issued and not consumed, oldest first. */
export async function listOobCodes(host: string, projectId: string = DEFAULT_PROJECT_ID): Promise<OobCode[]> {
  const body = await request<{ oobCodes?: OobCode[] }>('GET', emulatorApi(host, projectId, 'oobCodes'));
  return body.oobCodes ?? [];
}

/** Applies an out-of-band code (like the link in the e-mail would). */
export async function applyOobCode(
  host: string,
  oobCode: string,
): Promise<{ email?: string; emailVerified?: boolean; localId?: string }> {
  return request('POST', identityToolkit(host, 'update'), { oobCode });
}

/**
 * Marks the account's e-mail as verified the way a user does: takes the newest VERIFY_EMAIL code for the
 * e-mail (issuing one with emulator admin rights when there is none) and applies it. ID tokens issued
 * before this still say `email_verified: false`; sign in again for a token that says true.
 */
export async function verifyEmail(
  host: string,
  email: string,
  projectId: string = DEFAULT_PROJECT_ID,
): Promise<void> {
  const wanted = email.trim().toLowerCase();
  const codes = (await listOobCodes(host, projectId)).filter(
    (c) => c.requestType === 'VERIFY_EMAIL' && c.email.toLowerCase() === wanted,
  );
  const newest = codes.at(-1);
  if (newest) {
    try {
      await applyOobCode(host, newest.oobCode);
      return;
    } catch (err) {
      // A stale code (e.g. its account was deleted and re-created): issue a fresh one below.
      if (!(err instanceof IdentityRestError && err.code.startsWith('INVALID_OOB_CODE'))) throw err;
    }
  }
  const issued = await request<{ oobCode?: string }>(
    'POST',
    `${origin(host)}/identitytoolkit.googleapis.com/v1/projects/${encodeURIComponent(projectId)}/accounts:sendOobCode`,
    { requestType: 'VERIFY_EMAIL', email, returnOobLink: true },
    { authorization: 'Bearer owner' },
  );
  if (!issued.oobCode) throw new Error(`Auth emulator issued no VERIFY_EMAIL code for ${email}`);
  await applyOobCode(host, issued.oobCode);
}
