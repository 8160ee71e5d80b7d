// `/_sandbox/*`: what the CLI and tests in other processes use to make simulated customers talk, change a
// template's status or a number's health, inject failures and move the sandbox's clock.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CustomerMessage, InjectedFailure, NumberHealthState, SandboxCore, TemplateStatus } from './core';
import { isObj } from './validate';
import { portfolioTiers } from './health';

/** The Graph API version the sandbox advertises in baseUrl; any `vX.Y` prefix is accepted. */
export const SANDBOX_GRAPH_VERSION = 'v26.0';

/** `/_sandbox/*`: loopback-only control surface for the CLI and for tests in other processes. */
export function registerControl(app: FastifyInstance, core: SandboxCore, origin: () => string): void {
  app.get('/_sandbox', async () => ({
    baseUrl: `${origin()}/${SANDBOX_GRAPH_VERSION}`,
    accounts: [...core.state.accounts.values()],
    webhookUrl: core.state.webhooks.webhookUrl,
  }));

  app.get('/_sandbox/state', async () => ({
    sent: core.state.sent.slice(-50),
    // Every message accepted so far (the list above keeps only the last 50).
    sentTotal: core.state.sent.length,
    received: core.state.received.slice(-50),
    typingIndicators: core.state.typingIndicators.slice(-50),
    templates: core.state.templates,
    webhooks: core.state.webhooks.records.slice(-50).map(({ seq, field, status, attempts, delivered }) => ({ seq, field, status, attempts, delivered })),
  }));

  app.post('/_sandbox/customers/:waId/messages', async (req: FastifyRequest, reply: FastifyReply) => {
    const { waId } = req.params as { waId: string };
    const b = req.body;
    if (!isObj(b) || typeof b.type !== 'string') return reply.code(400).send({ error: 'body must be a customer message with a type' });
    const { name, phoneNumberId, dataBase64, username, hidePhone, ...rest } = b as Record<string, unknown>;
    const msg = { ...rest, ...(typeof dataBase64 === 'string' ? { data: Buffer.from(dataBase64, 'base64') } : {}) } as CustomerMessage;
    try {
      const { id, webhook } = await core.customers.customerSend(waId, msg, {
        name: typeof name === 'string' ? name : undefined,
        phoneNumberId: typeof phoneNumberId === 'string' ? phoneNumberId : undefined,
        username: typeof username === 'string' ? username : undefined,
        hidePhone: typeof hidePhone === 'boolean' ? hidePhone : undefined,
      });
      return { id, webhook: { seq: webhook.seq, delivered: webhook.delivered, status: webhook.status } };
    } catch (err) {
      return reply.code(400).send({ error: (err as Error).message });
    }
  });

  // The customer stops or resumes marketing in WhatsApp (a `user_preferences` webhook follows).
  app.post('/_sandbox/customers/:waId/preferences', async (req: FastifyRequest, reply: FastifyReply) => {
    const { waId } = req.params as { waId: string };
    const b = isObj(req.body) ? req.body : {};
    const account = b.phoneNumberId ? core.state.accounts.get(String(b.phoneNumberId)) : [...core.state.accounts.values()][0];
    if (!account || (b.value !== 'stop' && b.value !== 'resume')) return reply.code(400).send({ error: "body must be { value: 'stop' | 'resume', phoneNumberId? }" });
    await core.messaging.setMarketingPreference(account, waId, b.value);
    return { waId, value: b.value };
  });

  // 2026: the customer's user id changes (system message and `user_id_update`) ...
  app.post('/_sandbox/customers/:waId/user-id', async (req: FastifyRequest, reply: FastifyReply) => {
    const { waId } = req.params as { waId: string };
    const b = isObj(req.body) ? req.body : {};
    try {
      const r = await core.customers.changeUserId(waId, { phoneNumberId: typeof b.phoneNumberId === 'string' ? b.phoneNumberId : undefined });
      return { previous: r.previous, current: r.current, delivered: r.webhooks.every((w) => w.delivered) };
    } catch (err) {
      return reply.code(400).send({ error: (err as Error).message });
    }
  });
  // ... the business writes from the WhatsApp Business app on its phone (`smb_message_echoes`) ...
  app.post('/_sandbox/customers/:waId/echoes', async (req: FastifyRequest, reply: FastifyReply) => {
    const { waId } = req.params as { waId: string };
    const b = isObj(req.body) ? req.body : {};
    if (typeof b.text !== 'string' || !b.text) return reply.code(400).send({ error: 'body must be { text, phoneNumberId? }' });
    try {
      const { id, webhook } = await core.customers.businessAppSend(waId, b.text, { phoneNumberId: typeof b.phoneNumberId === 'string' ? b.phoneNumberId : undefined });
      return { id, webhook: { seq: webhook.seq, delivered: webhook.delivered, status: webhook.status } };
    } catch (err) {
      return reply.code(400).send({ error: (err as Error).message });
    }
  });
  // ... and the customer reaches WhatsApp's per-user marketing cap (marketing templates fail with 131049).
  app.post('/_sandbox/customers/:waId/marketing-cap', async (req: FastifyRequest, reply: FastifyReply) => {
    const { waId } = req.params as { waId: string };
    const b = isObj(req.body) ? req.body : {};
    if (typeof b.capped !== 'boolean') return reply.code(400).send({ error: 'body must be { capped: boolean }' });
    core.messaging.setMarketingCap(waId, b.capped);
    return { waId, capped: b.capped };
  });
  // The business portfolio's messaging limit, shared by all numbers of the WABA (their webhooks follow).
  app.post('/_sandbox/portfolio/limit', async (req: FastifyRequest, reply: FastifyReply) => {
    const b = isObj(req.body) ? req.body : {};
    const account = core.state.accounts.get(String(b.phoneNumberId ?? [...core.state.accounts.keys()][0]));
    if (!account || typeof b.tier !== 'string' || !portfolioTiers.includes(b.tier)) {
      return reply.code(400).send({ error: `body must be { tier: ${portfolioTiers.join(' | ')}, phoneNumberId? }` });
    }
    return core.health.portfolioLimit(account.wabaAccountId, b.tier, [...core.state.accounts.values()]);
  });

  app.post('/_sandbox/webhook-url', async (req) => {
    const url = isObj(req.body) && typeof req.body.url === 'string' ? req.body.url : undefined;
    core.state.webhooks.setWebhookUrl(url);
    return { webhookUrl: url ?? null };
  });

  app.post('/_sandbox/templates/:name/status', async (req, reply) => {
    const { name } = req.params as { name: string };
    const b = isObj(req.body) ? req.body : {};
    const statuses: TemplateStatus[] = ['PENDING', 'APPROVED', 'REJECTED', 'PAUSED', 'DISABLED'];
    if (!statuses.includes(b.status as TemplateStatus)) return reply.code(400).send({ error: `status must be one of ${statuses.join(', ')}` });
    const matches = core.state.templates.filter((t) => t.name === name || t.id === name).filter((t) => !b.language || t.language === b.language);
    if (matches.length === 0) return reply.code(404).send({ error: `no template ${name}` });
    const opts = { webhook: b.webhook !== false };
    for (const t of matches) await core.templates.setTemplateStatus(t, b.status as TemplateStatus, typeof b.reason === 'string' ? b.reason : undefined, opts);
    return { updated: matches.map((t) => ({ id: t.id, name: t.name, language: t.language, status: t.status })) };
  });

  // A number's health changes (Meta's phone_number_quality_update webhook follows) ...
  app.post('/_sandbox/accounts/:phoneNumberId/health', async (req, reply) => {
    const { phoneNumberId } = req.params as { phoneNumberId: string };
    const account = core.state.accounts.get(phoneNumberId);
    if (!account) return reply.code(404).send({ error: `no number ${phoneNumberId}` });
    const b = isObj(req.body) ? req.body : {};
    const text = (k: string) => (typeof b[k] === 'string' ? (b[k] as string) : undefined);
    return core.health.change(account, {
      qualityRating: text('qualityRating') as NumberHealthState['qualityRating'] | undefined,
      messagingLimitTier: text('messagingLimitTier'),
      throughputLevel: text('throughputLevel') as NumberHealthState['throughputLevel'] | undefined,
      event: text('event'),
    });
  });
  // ... and a template made elsewhere (WhatsApp Manager): at Meta, not in Parley until a sync lists it.
  app.post('/_sandbox/templates', async (req, reply) => {
    const b = isObj(req.body) ? req.body : {};
    const account = core.state.accounts.get(String(b.phoneNumberId ?? ''));
    if (!account || typeof b.name !== 'string') return reply.code(400).send({ error: 'body must be { phoneNumberId, name, language?, category?, status?, components? }' });
    return core.templates.seedTemplate(account, b as never);
  });

  app.post('/_sandbox/failures', async (req, reply) => {
    const b = req.body;
    if (!isObj(b) || typeof b.code !== 'number') return reply.code(400).send({ error: 'body must be { code, mode?, count?, details? }' });
    core.messaging.injectFailure(b as unknown as InjectedFailure);
    return { queued: true };
  });

  // A number's throughput tier at run time, a refused share of sends, deliveries per recipient.
  app.post('/_sandbox/accounts/:phoneNumberId/throughput', async (req, reply) => {
    const { phoneNumberId } = req.params as { phoneNumberId: string };
    const perSecond = isObj(req.body) ? Number(req.body.perSecond) : NaN;
    if (!Number.isFinite(perSecond) || perSecond <= 0) return reply.code(400).send({ error: 'body must be { perSecond }' });
    core.messaging.setThroughput(phoneNumberId, perSecond);
    return { phoneNumberId, perSecond };
  });
  app.post('/_sandbox/refusals', async (req, reply) => {
    const b = isObj(req.body) ? req.body : {};
    const share = Number(b.share);
    if (typeof b.code !== 'number' || !Number.isFinite(share) || share < 0 || share > 1) {
      return reply.code(400).send({ error: 'body must be { code, share (0 to 1), details? }' });
    }
    core.messaging.refuseShare({ code: b.code, share, details: typeof b.details === 'string' ? b.details : undefined });
    return { code: b.code, share };
  });
  app.get('/_sandbox/deliveries', async (req) => {
    const q = req.query as { phoneNumberId?: string };
    return core.messaging.deliveries(q.phoneNumberId);
  });

  app.post('/_sandbox/time', async (req, reply) => {
    const ms = isObj(req.body) ? Number(req.body.advanceMs) : NaN;
    if (!Number.isFinite(ms) || ms < 0) return reply.code(400).send({ error: 'body must be { advanceMs }' });
    core.state.advanceTime(ms);
    return { now: new Date(core.state.now()).toISOString() };
  });
}
