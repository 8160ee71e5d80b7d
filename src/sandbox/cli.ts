/**
 * `npm run sandbox` starts a standalone sandbox; `npm run sandbox -- <command>` drives a running one through
 * its /_sandbox control endpoints (for example the one `npm start` runs). See `npm run sandbox -- help`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SANDBOX_PORT, sandboxAccount, startSandbox } from './index';

const usage = `Parley WhatsApp sandbox

  npm run sandbox [-- --port 4010 --webhook URL --secret S]   start a sandbox and keep it running
  npm run sandbox -- say <waId> "text" [--name "Grace Hopper"] a customer sends a text message
      [--username grace] [--hide-phone]                      ... with a username, the phone withheld (2026)
  npm run sandbox -- image <waId> [file.png] [--caption "..."] a customer sends an image (a sample if no file)
  npm run sandbox -- document <waId> [file.pdf] [--caption]    a customer sends a document
  npm run sandbox -- tap <waId> [buttonIndex]                  a customer taps a reply button of the last buttons message
  npm run sandbox -- pick <waId> [rowIndex]                    a customer picks a row of the last list message
  npm run sandbox -- flow <waId> '{"field":"value"}'           a customer completes the last flow sent to them
  npm run sandbox -- approve|reject|pause <templateName>      change a template's review status (sends its webhook)
  npm run sandbox -- user-id <waId>                            the customer's user id changes (system message, user_id_update)
  npm run sandbox -- stop|resume <waId>                        the customer stops or resumes marketing (user_preferences)
  npm run sandbox -- cap|uncap <waId>                          marketing templates to the customer fail with 131049 (or not)
  npm run sandbox -- echo <waId> "text"                        the business writes from the WhatsApp Business app (smb_message_echoes)
  npm run sandbox -- limit <TIER_250|TIER_2K|TIER_10K|TIER_100K|TIER_UNLIMITED>  the portfolio's messaging limit
  npm run sandbox -- fail <code> [--async] [--count 1]         the next sends fail with that Graph error code
  npm run sandbox -- tier <perSecond>                          the number's throughput tier from now on (--phone-number-id)
  npm run sandbox -- refuse <code> <share>                     refuse a share (0 to 1) of the next sends with that code
  npm run sandbox -- deliveries                                messages per recipient and duplicates
  npm run sandbox -- advance <hours>                           move the sandbox clock (24-hour windows, media URLs)
  npm run sandbox -- status                                    account, recent messages, templates, webhooks

A running sandbox is found at --url, else $SANDBOX_URL, else the one \`npm start\` recorded in
$PARLEY_DATA_DIR/sandbox.json (default ./.parley), else http://127.0.0.1:${DEFAULT_SANDBOX_PORT}.
waId is the customer's phone number with country code (digits or +E.164). Customers write to the sandbox
account's number unless --phone-number-id names another number of that sandbox.`;

function sandboxUrl(flag: string | undefined): string {
  if (flag) return flag.replace(/\/$/, '');
  if (process.env.SANDBOX_URL) return process.env.SANDBOX_URL.replace(/\/$/, '');
  const file = path.join(process.env.PARLEY_DATA_DIR ?? path.resolve('.parley'), 'sandbox.json');
  try {
    const recorded = JSON.parse(fs.readFileSync(file, 'utf8')) as { origin?: string };
    if (recorded.origin) return recorded.origin;
  } catch {
    // No recorded sandbox: fall back to the default port.
  }
  return `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`;
}

async function control(base: string, method: 'GET' | 'POST', p: string, body?: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${base}${p}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    throw new Error(`no sandbox answers at ${base} (start one with \`npm run sandbox\` or \`npm start\`, or pass --url)`);
  }
  const json = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new Error(json.error ?? `sandbox answered ${res.status}`);
  return json;
}

const mimeByExt: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      port: { type: 'string' },
      webhook: { type: 'string' },
      secret: { type: 'string' },
      name: { type: 'string' },
      username: { type: 'string' },
      'hide-phone': { type: 'boolean' },
      'phone-number-id': { type: 'string' },
      caption: { type: 'string' },
      async: { type: 'boolean' },
      count: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command = 'start', ...rest] = positionals;
  if (values.help || command === 'help') return void console.log(usage);
  const base = sandboxUrl(values.url);
  const customer = (type: string, extra: Record<string, unknown>) => {
    const waId = rest[0];
    if (!waId) throw new Error(`usage: npm run sandbox -- ${command} <waId> ...`);
    return control(base, 'POST', `/_sandbox/customers/${encodeURIComponent(waId)}/messages`, {
      type,
      name: values.name,
      phoneNumberId: values['phone-number-id'],
      username: values.username,
      hidePhone: values['hide-phone'],
      ...extra,
    });
  };
  const printSent = (r: unknown) => {
    const { id, webhook } = r as { id: string; webhook: { delivered: boolean; status?: number } };
    console.log(`sent ${id}; webhook ${webhook.delivered ? `delivered (HTTP ${webhook.status})` : `NOT delivered (last status ${webhook.status ?? 'none'})`}`);
  };
  const file = (p: string | undefined) =>
    p ? { dataBase64: fs.readFileSync(p).toString('base64'), mimeType: mimeByExt[path.extname(p).toLowerCase()] ?? 'application/octet-stream', fileName: path.basename(p) } : {};

  switch (command) {
    case 'start': {
      const secret = values.secret ?? process.env.WHATSAPP_APP_SECRET ?? 'parley-local-app-secret';
      const sandbox = await startSandbox({
        port: Number(values.port ?? process.env.SANDBOX_PORT ?? DEFAULT_SANDBOX_PORT),
        appSecret: secret,
        webhookUrl: values.webhook ?? process.env.SANDBOX_WEBHOOK_URL,
        log: (line) => console.log(`[sandbox] ${line}`),
      });
      console.log(`WhatsApp sandbox: GRAPH_API_URL=${sandbox.baseUrl}`);
      console.log(`account: phone ${sandboxAccount.phoneNumber}, phone number id ${sandboxAccount.phoneNumberId}, WABA ${sandboxAccount.wabaAccountId}, app ${sandboxAccount.appId}`);
      console.log(`token: ${sandboxAccount.token}`);
      console.log(`webhooks: ${values.webhook ?? process.env.SANDBOX_WEBHOOK_URL ?? 'none yet (POST /_sandbox/webhook-url {"url"})'}, signed with the app secret given by --secret / WHATSAPP_APP_SECRET`);
      console.log(`make a customer talk: npm run sandbox -- say 14155550123 "Hi!" --name "Grace Hopper" --url ${sandbox.origin}`);
      const stop = () => void sandbox.close().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      return;
    }
    case 'say':
      if (!rest[1]) throw new Error('usage: npm run sandbox -- say <waId> "text"');
      return printSent(await customer('text', { text: rest.slice(1).join(' ') }));
    case 'image':
      return printSent(await customer('image', { ...file(rest[1]), caption: values.caption }));
    case 'document':
      return printSent(await customer('document', { ...file(rest[1]), caption: values.caption }));
    case 'tap':
      return printSent(await customer('button_reply', { index: Number(rest[1] ?? 0) }));
    case 'pick':
      return printSent(await customer('list_reply', { index: Number(rest[1] ?? 0) }));
    case 'flow':
      return printSent(await customer('nfm_reply', { response: rest[1] ? JSON.parse(rest[1]) : {} }));
    case 'approve':
    case 'reject':
    case 'pause': {
      if (!rest[0]) throw new Error(`usage: npm run sandbox -- ${command} <templateName>`);
      const status = { approve: 'APPROVED', reject: 'REJECTED', pause: 'PAUSED' }[command];
      console.log(JSON.stringify(await control(base, 'POST', `/_sandbox/templates/${encodeURIComponent(rest[0])}/status`, { status }), null, 2));
      return;
    }
    // 2026: identities, consent, caps, coexistence echoes, the portfolio's limit.
    case 'user-id': {
      if (!rest[0]) throw new Error('usage: npm run sandbox -- user-id <waId>');
      const r = (await control(base, 'POST', `/_sandbox/customers/${encodeURIComponent(rest[0])}/user-id`, { phoneNumberId: values['phone-number-id'] })) as { previous: string; current: string };
      return void console.log(`customer ${rest[0]}: user id ${r.previous} -> ${r.current}`);
    }
    case 'stop':
    case 'resume':
      if (!rest[0]) throw new Error(`usage: npm run sandbox -- ${command} <waId>`);
      await control(base, 'POST', `/_sandbox/customers/${encodeURIComponent(rest[0])}/preferences`, { value: command, phoneNumberId: values['phone-number-id'] });
      return void console.log(`customer ${rest[0]}: ${command} marketing messages (user_preferences sent)`);
    case 'cap':
    case 'uncap':
      if (!rest[0]) throw new Error(`usage: npm run sandbox -- ${command} <waId>`);
      await control(base, 'POST', `/_sandbox/customers/${encodeURIComponent(rest[0])}/marketing-cap`, { capped: command === 'cap' });
      return void console.log(`customer ${rest[0]}: marketing templates ${command === 'cap' ? 'fail with 131049' : 'are delivered again'}`);
    case 'echo':
      if (!rest[0] || !rest[1]) throw new Error('usage: npm run sandbox -- echo <waId> "text"');
      return printSent(
        await control(base, 'POST', `/_sandbox/customers/${encodeURIComponent(rest[0])}/echoes`, { text: rest.slice(1).join(' '), phoneNumberId: values['phone-number-id'] }),
      );
    case 'limit': {
      if (!rest[0]) throw new Error('usage: npm run sandbox -- limit <tier>');
      const r = (await control(base, 'POST', '/_sandbox/portfolio/limit', { tier: rest[0], phoneNumberId: values['phone-number-id'] })) as { numbers: string[] };
      return void console.log(`portfolio limit ${rest[0]} on numbers ${r.numbers.join(', ')}`);
    }
    case 'fail': {
      const code = Number(rest[0]);
      if (!Number.isInteger(code)) throw new Error('usage: npm run sandbox -- fail <code> [--async] [--count n]');
      await control(base, 'POST', '/_sandbox/failures', { code, mode: values.async ? 'async' : 'sync', count: Number(values.count ?? 1) });
      return void console.log(`the next ${values.count ?? 1} ${values.async ? 'accepted messages get a failed webhook' : 'send requests fail'} with code ${code}`);
    }
    // Throughput tier, refused share, delivery counts (campaign tests and benchmarks).
    case 'tier': {
      const perSecond = Number(rest[0]);
      if (!(perSecond > 0)) throw new Error('usage: npm run sandbox -- tier <perSecond> [--phone-number-id ID]');
      const id = values['phone-number-id'] ?? sandboxAccount.phoneNumberId;
      await control(base, 'POST', `/_sandbox/accounts/${encodeURIComponent(id)}/throughput`, { perSecond });
      return void console.log(`number ${id} now sends at most ${perSecond} messages per second`);
    }
    case 'refuse': {
      const code = Number(rest[0]);
      const share = Number(rest[1]);
      if (!Number.isInteger(code) || !(share >= 0 && share <= 1)) throw new Error('usage: npm run sandbox -- refuse <code> <share 0..1>');
      await control(base, 'POST', '/_sandbox/refusals', { code, share });
      return void console.log(share > 0 ? `${share * 100}% of the next sends are refused with code ${code}` : 'no more refusals');
    }
    case 'deliveries': {
      const q = values['phone-number-id'] ? `?phoneNumberId=${encodeURIComponent(values['phone-number-id'])}` : '';
      const d = (await control(base, 'GET', `/_sandbox/deliveries${q}`)) as { messages: number; recipients: number; duplicates: number };
      return void console.log(`${d.messages} messages to ${d.recipients} recipients, ${d.duplicates} duplicates`);
    }
    case 'advance': {
      const hours = Number(rest[0]);
      if (!Number.isFinite(hours) || hours < 0) throw new Error('usage: npm run sandbox -- advance <hours>');
      const r = (await control(base, 'POST', '/_sandbox/time', { advanceMs: hours * 3_600_000 })) as { now: string };
      return void console.log(`sandbox clock is now ${r.now}`);
    }
    case 'status': {
      const info = await control(base, 'GET', '/_sandbox');
      const state = await control(base, 'GET', '/_sandbox/state');
      console.log(JSON.stringify({ ...(info as object), ...(state as object) }, null, 2));
      return;
    }
    default:
      throw new Error(`unknown command "${command}"\n\n${usage}`);
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
