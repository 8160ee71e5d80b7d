/**
 * Typed helpers for the Firebase Auth emulator's REST API (Identity Toolkit v1 + the emulator-only endpoints).
 * `host` is what FIREBASE_AUTH_EMULATOR_HOST holds: `127.0.0.1:9099` (an `http://` prefix is accepted too).
 *
 * Only for the emulator: API key `any` and the `Bearer owner` admin credential are accepted by it alone.
 */

export const DEFAULT_PROJECT_ID = 'demo-parley';

export interface PasswordSession {
  idToken: string;
  refreshToken: string;
  /** The Firebase uid. */
  localId: string;
  email: string;
}

export type OobRequestType = 'VERIFY_EMAIL' | 'PASSWORD_RESET' | 'EMAIL_SIGNIN' | 'VERIFY_AND_CHANGE_EMAIL';

export interface OobCode {
  email: string;
  requestType: OobRequestType;
  oobCode: string;
  oobLink: string;
}

/** An error answer of the emulator; `code` is its message, e.g. `EMAIL_EXISTS`, `INVALID_PASSWORD`. */
export class IdentityRestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'IdentityRestError';
  }
}

function origin(host: string): string {
  const trimmed = host.replace(/\/+$/, '');
  return /^https?:\/\//.test(trimmed) ? trimmed : `http://${trimmed}`;
}

const identityToolkit = (host: string, method: string) =>
  `${origin(host)}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=any`;

const emulatorApi = (host: string, projectId: string, resource: string) =>
  `${origin(host)}/emulator/v1/projects/${encodeURIComponent(projectId)}/${resource}`;

async function request<T>(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new Error(`Auth emulator not reachable: ${method} ${url}: ${(err as Error).message}`, { cause: err });
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const code =
      (json as { error?: { message?: string } } | undefined)?.error?.message ?? (text || res.statusText);
    const path = new URL(url).pathname;
    throw new IdentityRestError(`Auth emulator ${method} ${path} failed (${res.status}): ${code}`, res.status, code);
  }
  return json as T;
}

function session(body: Partial<PasswordSession>, fallbackEmail: string): PasswordSession {
  if (!body.idToken || !body.refreshToken || !body.localId) {
    throw new Error(`Auth emulator answered without a session: ${JSON.stringify(body)}`);
  }
  return {
    idToken: body.idToken,
    refreshToken: body.refreshToken,
    localId: body.localId,
    email: body.email ?? fallbackEmail,
  };
}

export async function signUpWithPassword(host: string, email: string, password: string): Promise<PasswordSession> {
  const body = await request<Partial<PasswordSession>>('POST', identityToolkit(host, 'signUp'), {
    email,
    password,
    returnSecureToken: true,
  });
  return session(body, email);
}

export async function signInWithPassword(host: string, email: string, password: string): Promise<PasswordSession> {
  const body = await request<Partial<PasswordSession>>('POST', identityToolkit(host, 'signInWithPassword'), {
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

/** Deletes every account of the project (and only in the emulator). Affects everyone sharing the emulator. */
export async function deleteAllAccounts(host: string, projectId: string = DEFAULT_PROJECT_ID): Promise<void> {
  await request('DELETE', emulatorApi(host, projectId, 'accounts'));
}
