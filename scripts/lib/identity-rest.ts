/**
 * Typed helpers for the Firebase Auth emulator's REST API (Identity Toolkit v1): signing in, as the demo seed does.
 * `host` is what FIREBASE_AUTH_EMULATOR_HOST holds: `127.0.0.1:9099` (an `http://` prefix is accepted too). The
 * tests' own calls (sign-up, e-mail verification, out-of-band codes) are in tests/support/identity-rest.ts.
 *
 * Only for the emulator: API key `any` and the `Bearer owner` admin credential are accepted by it alone.
 */

export interface PasswordSession {
  idToken: string;
  refreshToken: string;
  /** The Firebase uid. */
  localId: string;
  email: string;
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

export function origin(host: string): string {
  const trimmed = host.replace(/\/+$/, '');
  return /^https?:\/\//.test(trimmed) ? trimmed : `http://${trimmed}`;
}

export const identityToolkit = (host: string, method: string) =>
  `${origin(host)}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=any`;

export async function request<T>(
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

export function session(body: Partial<PasswordSession>, fallbackEmail: string): PasswordSession {
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

export async function signInWithPassword(host: string, email: string, password: string): Promise<PasswordSession> {
  const body = await request<Partial<PasswordSession>>('POST', identityToolkit(host, 'signInWithPassword'), {
    email,
    password,
    returnSecureToken: true,
  });
  return session(body, email);
}
