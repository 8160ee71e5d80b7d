/**
 * Vitest globalSetup: one Firebase Auth emulator for the whole run.
 *
 * - Port: PARLEY_TEST_AUTH_PORT, else 9099. An emulator already answering on that port is reused (and left
 *   running); otherwise one is started and stopped again in teardown.
 * - Workers: sets FIREBASE_AUTH_EMULATOR_HOST (`127.0.0.1:PORT`) and FIREBASE_PROJECT_ID (`demo-parley`) on
 *   process.env before the workers are created. Vitest builds each worker's env from `{ ...process.env }`
 *   at that point, so tests (and firebase-admin inside the server under test) see both as plain env vars.
 *   The same values are also provided as `inject('authEmulatorHost')` / `inject('firebaseProjectId')`
 *   (use `tests/support/identity.ts`, which reads env first and falls back to inject).
 * - PARLEY_TEST_AUTH_LOG=1 echoes the emulator's output to stderr.
 */
import type { TestProject } from 'vitest/node';
import { startAuthEmulator, DEFAULT_AUTH_EMULATOR_PORT, DEFAULT_PROJECT_ID } from '../../scripts/lib/auth-emulator';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `127.0.0.1:PORT` of the Firebase Auth emulator, the value of FIREBASE_AUTH_EMULATOR_HOST. */
    authEmulatorHost: string;
    /** `demo-parley`. */
    firebaseProjectId: string;
  }
}

function testAuthPort(): number {
  const raw = process.env.PARLEY_TEST_AUTH_PORT;
  if (!raw) return DEFAULT_AUTH_EMULATOR_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`PARLEY_TEST_AUTH_PORT must be a TCP port number, got "${raw}"`);
  }
  return port;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const echo = process.env.PARLEY_TEST_AUTH_LOG === '1';
  const started = Date.now();
  const emulator = await startAuthEmulator({
    port: testAuthPort(),
    projectId: DEFAULT_PROJECT_ID,
    log: echo ? (line) => process.stderr.write(`[auth-emulator] ${line}\n`) : undefined,
  });
  if (echo || !emulator.reused) {
    process.stderr.write(
      `[auth-emulator] ${emulator.reused ? 'reusing' : 'started'} ${emulator.host} ` +
        `(${Date.now() - started} ms)\n`,
    );
  }

  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  process.env.FIREBASE_PROJECT_ID = emulator.projectId;
  project.provide('authEmulatorHost', emulator.host);
  project.provide('firebaseProjectId', emulator.projectId);

  return async function teardown() {
    await emulator.stop();
  };
}
