// The real server stack for the main-process tests: listening on a free port, an admin with a connected
// sandbox WhatsApp number, and customers who write in.
import type { AddressInfo } from 'node:net';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { type Landed, newCustomers } from '../support/customers';

export interface DeskStack {
  ta: TestApp;
  base: string;
  admin: Session;
  number: SandboxAccount;
  /** a new customer (its own phone number) writes `text`; answers the contact and conversation Parley opened */
  customerWrites(text: string, name?: string): Promise<Landed & { waId: string }>;
}

export async function startDeskStack(organizationName: string, phonePrefix: string): Promise<DeskStack> {
  const ta = await buildTestApp();
  await ta.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(ta.app.server.address() as AddressInfo).port}`;
  const admin = await ta.newAdmin(organizationName);
  const number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  if (res.statusCode !== 201) throw new Error(`connecting the sandbox number failed: ${res.statusCode} ${res.body}`);
  return {
    ta,
    base,
    admin,
    number,
    customerWrites: newCustomers(() => ({ ta, workspaceId: admin.workspaceId, phoneNumberId: number.phoneNumberId }), { waIdPrefix: phonePrefix, name: (n) => `Customer ${n}` }),
  };
}

