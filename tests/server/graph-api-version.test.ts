// The Graph API version is configuration: the default is the newest version Meta has released, GRAPH_API_VERSION
// chooses another, and the sandbox answers whichever version the server speaks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, sandboxAccount, startSandbox } from '../../src/sandbox';
import { loadConfig } from '../../src/server/config';
import { createGraphClient, messages } from '../../src/server/whatsapp/graph-client';

const env = (e: Record<string, string>) => e as unknown as NodeJS.ProcessEnv;

describe('the Graph API version in the configuration', () => {
  it('defaults to v26.0 on graph.facebook.com, not the v23.0 that ends in October 2027', () => {
    expect(loadConfig(env({})).graphApiUrl).toBe('https://graph.facebook.com/v26.0');
  });

  it('takes GRAPH_API_VERSION, appended to a GRAPH_API_URL without a version', () => {
    expect(loadConfig(env({ GRAPH_API_VERSION: 'v25.0' })).graphApiUrl).toBe('https://graph.facebook.com/v25.0');
    expect(loadConfig(env({ GRAPH_API_URL: 'http://127.0.0.1:4010/', GRAPH_API_VERSION: 'v27.0' })).graphApiUrl).toBe('http://127.0.0.1:4010/v27.0');
  });

  it('keeps a version already written in GRAPH_API_URL, and refuses two different versions or a malformed one', () => {
    expect(loadConfig(env({ GRAPH_API_URL: 'https://graph.facebook.com/v24.0' })).graphApiUrl).toBe('https://graph.facebook.com/v24.0');
    expect(loadConfig(env({ GRAPH_API_URL: 'https://graph.facebook.com/v24.0', GRAPH_API_VERSION: 'v24.0' })).graphApiUrl).toBe(
      'https://graph.facebook.com/v24.0',
    );
    expect(() => loadConfig(env({ GRAPH_API_URL: 'https://graph.facebook.com/v23.0', GRAPH_API_VERSION: 'v26.0' }))).toThrow(
      /GRAPH_API_URL names version v23.0 but GRAPH_API_VERSION is v26.0/,
    );
    expect(() => loadConfig(env({ GRAPH_API_VERSION: '26' }))).toThrow(/GRAPH_API_VERSION must look like v26.0/);
  });
});

describe('the sandbox under any version', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ appSecret: 'test-secret', statusDelayMs: 0 });
  });
  afterAll(() => sandbox?.close());

  it('advertises the default version in its base URL', () => {
    expect(sandbox.baseUrl).toBe(`${sandbox.origin}/v26.0`);
  });

  it.each(['v19.0', 'v23.0', 'v26.0', 'v27.0'])('answers the lookup, a send and the template list under %s', async (version) => {
    const { graphApiUrl } = loadConfig(env({ GRAPH_API_URL: sandbox.origin, GRAPH_API_VERSION: version }));
    const client = createGraphClient({ baseUrl: graphApiUrl, retries: 0, timeoutMs: 5000 });
    const creds = { token: sandboxAccount.token, phoneNumberId: sandboxAccount.phoneNumberId, wabaAccountId: sandboxAccount.wabaAccountId, appId: sandboxAccount.appId };
    expect((await client.getPhoneNumber(creds)).id).toBe(sandboxAccount.phoneNumberId);
    const customer = '+14155550177';
    await sandbox.customers.say(customer, 'Hello');
    expect((await client.sendMessage(creds, customer, messages.text(`under ${version}`))).wamid).toMatch(/^wamid\./);
    expect(sandbox.sent.at(-1)?.body).toMatchObject({ text: { body: `under ${version}` } });
    expect((await client.listTemplates(creds)).map((t) => t.name)).toContain('hello_world');
  });
});
