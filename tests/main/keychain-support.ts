// The main-process tests use the real OS keychain. On Linux that needs a keyring: run them inside
// `keyctl session - npm test` (or a Secret Service session). Without one they fail here, loudly, never skip.
import { randomUUID } from 'node:crypto';
import { assertKeychainReachable, osKeychain, type SecretStore } from '../../src/main/identity/keychain';

/** A keychain service of its own per test, so parallel test files never see each other's entries. */
export async function testKeychain(): Promise<{ service: string; store: SecretStore }> {
  const service = `parley-test-${randomUUID()}`;
  const store = osKeychain(service);
  try {
    await assertKeychainReachable(store);
  } catch (error) {
    throw new Error(
      `No OS keychain for the main-process tests: run them as \`keyctl session - npm test\` (Debian package keyutils). ${(error as Error).message}`,
    );
  }
  return { service, store };
}
