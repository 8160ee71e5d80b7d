// The OS keychain (macOS Keychain, Windows Credential Manager, Linux Secret Service or kernel keyring)
// through @napi-rs/keyring, behind a three-method interface so the identity module does not depend on it.
import { AsyncEntry } from '@napi-rs/keyring';

export interface SecretStore {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** true if something was deleted */
  delete(account: string): Promise<boolean>;
}

export class KeychainUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      `The OS keychain cannot be reached (${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}). ` +
        'On Linux run inside a Secret Service session or `keyctl session - <command>`.',
    );
    this.name = 'KeychainUnavailableError';
  }
}

/** Secrets of one service (e.g. "Parley" or a test's unique name); the account names the secret. */
export function osKeychain(service: string): SecretStore {
  const entry = (account: string) => new AsyncEntry(service, account);
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw new KeychainUnavailableError(error);
    }
  };
  return {
    get: (account) => guard(async () => (await entry(account).getPassword()) ?? null),
    set: (account, secret) => guard(() => entry(account).setPassword(secret)),
    delete: (account) => guard(() => entry(account).deleteCredential()),
  };
}

/** Fails loudly when no keychain is reachable (the app and the tests refuse to fall back to plain files). */
export async function assertKeychainReachable(store: SecretStore): Promise<void> {
  const probe = `parley-probe-${process.pid}`;
  await store.set(probe, 'ok');
  if ((await store.get(probe)) !== 'ok') throw new KeychainUnavailableError(new Error('a written secret could not be read back'));
  await store.delete(probe);
}

/** Secrets kept in this process only (gone when the app quits). */
export function memoryKeychain(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => void secrets.set(account, secret),
    delete: async (account) => secrets.delete(account),
  };
}

export type ChosenKeychain = { store: SecretStore; persistent: true } | { store: SecretStore; persistent: false; reason: string };

/**
 * The OS keychain when it answers; otherwise (a Linux desktop without Secret Service or a session keyring) a
 * keychain in memory: the app starts, the session lasts for this run only, and the app says so. Never a file.
 */
export async function chooseKeychain(os: SecretStore): Promise<ChosenKeychain> {
  try {
    await assertKeychainReachable(os);
    return { store: os, persistent: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { store: memoryKeychain(), persistent: false, reason };
  }
}

/** What the account menu says when the session is not kept (see chooseKeychain). */
export const sessionOnlyNotice = 'No system keychain: you stay signed in until Parley quits';
