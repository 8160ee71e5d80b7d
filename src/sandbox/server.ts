/**
 * The sandbox's HTTP face: Graph API paths under any `/vX.Y` prefix (reference §1, §4, §5, §6), the
 * bearer-protected media download, and `/_sandbox/*` control endpoints the CLI and other processes use to
 * make simulated customers talk.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { type SandboxAccount, displayPhoneNumber } from './account';
import { registerControl } from './control';
import type { NumberHealthState, SandboxCore } from './core';
import { SandboxGraphError, badParam, unknownObject } from './graph-error';

type Params = { version: string; id: string };
type Query = Record<string, string | undefined>;

/** The token from `Authorization: Bearer|OAuth <t>` (resumable uploads use OAuth) or `?access_token=`. */
function tokenOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h === 'string') {
    const m = /^(?:Bearer|OAuth)\s+(\S+)\s*$/i.exec(h);
    return m?.[1];
  }
  const q = (req.query as Query).access_token;
  return q || undefined;
}

/** Version check, then the bearer token, for every Graph path: the accounts the token may act on. */
function graphAccounts(core: SandboxCore, req: FastifyRequest): SandboxAccount[] {
  const { version } = req.params as Params;
  if (!/^v\d+\.\d+$/.test(version)) throw badParam(`Unknown path components: /${version} is not a Graph API version`);
  return core.state.authenticate(tokenOf(req));
}

/** Fastify with Graph's body sizes and parsers, and its error shapes for failures and unknown paths. */
function createApp(core: SandboxCore): FastifyInstance {
  // 100 MB documents are allowed by WhatsApp, so bodies may be that large.
  const app = Fastify({ logger: false, bodyLimit: 110 * 1024 * 1024, routerOptions: { ignoreTrailingSlash: true } });

  void app.register(multipart, { limits: { fileSize: 110 * 1024 * 1024, files: 1 } });
  // Resumable-upload chunks arrive as raw bytes with whatever content type the client chose.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof SandboxGraphError) return reply.code(err.httpStatus).send(err.toBody());
    const e = err as { statusCode?: number; message: string };
    if (e.statusCode && e.statusCode < 500) return reply.code(400).send(badParam(e.message).toBody());
    core.log(`internal error: ${e.message}`);
    return reply.code(500).send(new SandboxGraphError(1, 'An unknown error occurred', { httpStatus: 500 }).toBody());
  });
  app.setNotFoundHandler((req, reply) => {
    const err = new SandboxGraphError(100, `Unknown path components: ${req.url.split('?')[0]}`, { type: 'GraphMethodException' });
    return reply.code(400).send(err.toBody());
  });
  return app;
}

/** Sending messages and uploading media from a phone number. */
function registerMessaging(app: FastifyInstance, core: SandboxCore): void {
  app.post('/:version/:id/messages', async (req) => {
    const visible = graphAccounts(core, req);
    const account = core.state.phoneNumber(visible, (req.params as Params).id, 'POST');
    return core.messaging.send(account, req.body);
  });

  app.post('/:version/:id/media', async (req) => {
    const visible = graphAccounts(core, req);
    const account = core.state.phoneNumber(visible, (req.params as Params).id, 'POST');
    if (!req.isMultipart()) throw badParam('Media uploads must be multipart/form-data.');
    const fields: Record<string, string> = {};
    let file: { data: Buffer; mimeType: string; fileName?: string } | undefined;
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'file') file = { data, mimeType: part.mimetype, fileName: part.filename };
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
    return core.media.uploadMedia(account, fields, file);
  });
}

/** A WABA's message templates: listed page by page, created, deleted. */
function registerTemplates(app: FastifyInstance, core: SandboxCore, origin: () => string): void {
  app.get('/:version/:id/message_templates', async (req) => {
    const visible = graphAccounts(core, req);
    const { version, id } = req.params as Params;
    const account = core.state.waba(visible, id, 'GET');
    const q = req.query as Query;
    const limit = Math.min(Math.max(Number(q.limit ?? 25) || 25, 1), 1000);
    const all = core.templates.listTemplates(account, q);
    const start = q.after ? Number(Buffer.from(q.after, 'base64url').toString()) || 0 : 0;
    const page = all.slice(start, start + limit);
    const fields = q.fields ? q.fields.split(',').map((f) => f.trim()) : ['name', 'status', 'category', 'language', 'components', 'parameter_format'];
    const data = page.map((t) => {
      const full: Record<string, unknown> = {
        id: t.id,
        name: t.name,
        status: t.status,
        category: t.category,
        language: t.language,
        components: t.components,
        parameter_format: t.parameterFormat,
        ...(t.rejectedReason ? { rejected_reason: t.rejectedReason } : {}),
      };
      return Object.fromEntries(Object.entries(full).filter(([k]) => k === 'id' || fields.includes(k)));
    });
    const cursor = (i: number) => Buffer.from(String(i)).toString('base64url');
    const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(start + page.length) } };
    if (start + page.length < all.length) {
      const next = new URL(`${origin()}/${version}/${id}/message_templates`);
      for (const [k, v] of Object.entries(q)) if (v !== undefined && k !== 'after' && k !== 'access_token') next.searchParams.set(k, v);
      next.searchParams.set('limit', String(limit));
      next.searchParams.set('after', cursor(start + page.length));
      paging.next = next.toString();
    }
    return { data, paging };
  });

  app.post('/:version/:id/message_templates', async (req) => {
    const visible = graphAccounts(core, req);
    return core.templates.createTemplate(core.state.waba(visible, (req.params as Params).id, 'POST'), req.body);
  });

  app.delete('/:version/:id/message_templates', async (req) => {
    const visible = graphAccounts(core, req);
    const q = req.query as Query;
    return core.templates.deleteTemplate(core.state.waba(visible, (req.params as Params).id, 'DELETE'), q.name, q.hsm_id);
  });
}

/** A WABA's Flows and phone numbers, and an app's resumable upload sessions. */
function registerWaba(app: FastifyInstance, core: SandboxCore): void {
  app.get('/:version/:id/flows', async (req) => {
    const visible = graphAccounts(core, req);
    const account = core.state.waba(visible, (req.params as Params).id, 'GET');
    const data = core.state.flows
      .filter((f) => f.wabaId === account.wabaAccountId)
      .map(({ id, name, status, categories, validation_errors }) => ({ id, name, status, categories, validation_errors }));
    return { data, paging: { cursors: { before: 'MAZDZD', after: 'MAZDZD' } } };
  });

  app.get('/:version/:id/phone_numbers', async (req) => {
    const visible = graphAccounts(core, req);
    const account = core.state.waba(visible, (req.params as Params).id, 'GET');
    return { data: [...core.state.accounts.values()].filter((a) => a.wabaAccountId === account.wabaAccountId).map((a) => phoneNumberView(a, core.health.of(a.phoneNumberId))) };
  });

  app.post('/:version/:id/uploads', async (req) => {
    const visible = graphAccounts(core, req);
    return core.media.createUploadSession(core.state.app(visible, (req.params as Params).id, 'POST'), req.query as Query);
  });
}

/** `/{id}`: read whatever object an id names, append to an upload session, delete a media. */
function registerObjects(app: FastifyInstance, core: SandboxCore, origin: () => string): void {
  // GET /{id}: a phone number, WABA, media, flow, template or upload session, whichever the id names.
  app.get('/:version/:id', async (req) => {
    const visible = graphAccounts(core, req);
    const { id } = req.params as Params;
    if (id.startsWith('upload:')) {
      const s = core.media.uploadSession(visible, id, 'GET');
      return { id: s.id, file_offset: s.offset };
    }
    const phone = visible.find((a) => a.phoneNumberId === id);
    if (phone) return phoneNumberView(phone, core.health.of(phone.phoneNumberId));
    const waba = visible.find((a) => a.wabaAccountId === id);
    if (waba) return { id, name: waba.verifiedName, currency: 'USD', timezone_id: '1', message_template_namespace: `sandbox_${id}` };
    const media = core.media.mediaFor(visible, id);
    if (media) {
      return {
        messaging_product: 'whatsapp',
        url: `${origin()}/lookaside/whatsapp_business/attachments/?${core.media.mediaUrlQuery(media)}`,
        mime_type: media.mimeType,
        sha256: media.sha256,
        file_size: media.data.length,
        id: media.id,
      };
    }
    const flow = core.state.flows.find((f) => f.id === id && visible.some((a) => a.wabaAccountId === f.wabaId));
    if (flow) {
      return {
        id: flow.id,
        name: flow.name,
        status: flow.status,
        categories: flow.categories,
        validation_errors: flow.validation_errors,
        json_version: '6.0',
        data_api_version: '3.0',
        health_status: { can_send_message: flow.status === 'PUBLISHED' ? 'AVAILABLE' : 'BLOCKED', entities: [] },
      };
    }
    const template = core.state.templates.find((t) => t.id === id && visible.some((a) => a.wabaAccountId === t.wabaId));
    if (template) return { id: template.id, name: template.name, status: template.status, category: template.category, language: template.language, components: template.components };
    throw unknownObject(id, 'GET');
  });

  // POST /upload:<id> with `file_offset`; any other POST /{id} is not something the product does.
  app.post('/:version/:id', async (req, reply) => {
    const visible = graphAccounts(core, req);
    const { id } = req.params as Params;
    if (!id.startsWith('upload:')) throw unknownObject(id, 'POST');
    const s = core.media.uploadSession(visible, id, 'POST');
    const data = Buffer.isBuffer(req.body) ? req.body : Buffer.from(typeof req.body === 'string' ? req.body : '');
    const offset = req.headers.file_offset;
    const { body, interrupt } = core.media.appendUpload(s, Array.isArray(offset) ? offset[0] : offset, data);
    if (interrupt) {
      // Simulates a dropped connection mid-upload: the client sees a network error, the session keeps the bytes.
      req.raw.socket.destroy();
      return reply;
    }
    return body;
  });

  app.delete('/:version/:id', async (req) => {
    const visible = graphAccounts(core, req);
    const { id } = req.params as Params;
    const media = core.media.mediaFor(visible, id);
    if (!media) throw unknownObject(id, 'DELETE');
    core.state.media.delete(id);
    return { success: true };
  });
}

function registerMediaDownload(app: FastifyInstance, core: SandboxCore): void {
  // The media download: needs the URL's signature, its expiry not passed, and a bearer token of that number.
  app.get('/lookaside/whatsapp_business/attachments', async (req, reply) => {
    const q = req.query as Query;
    const token = tokenOf(req);
    let visible: SandboxAccount[];
    try {
      visible = core.state.authenticate(token);
    } catch {
      return reply.code(401).type('text/plain').send('Unauthorized: send the access token as a Bearer token');
    }
    const found = core.media.checkMediaUrl(q.mid ?? '', q.ext ?? '', q.hash ?? '');
    if (found === 'expired') return reply.code(404).type('text/plain').send('URL signature expired');
    if (!found || !visible.some((a) => a.phoneNumberId === found.phoneNumberId)) return reply.code(404).type('text/plain').send('Not found');
    reply.header('content-type', found.mimeType);
    reply.header('content-length', found.data.length);
    if (found.fileName) reply.header('content-disposition', `attachment; filename="${found.fileName.replace(/"/g, '')}"`);
    return reply.send(found.data);
  });
}

export function buildSandboxServer(core: SandboxCore, origin: () => string): FastifyInstance {
  const app = createApp(core);
  registerMessaging(app, core);
  registerTemplates(app, core, origin);
  registerWaba(app, core);
  registerObjects(app, core, origin);
  registerMediaDownload(app, core);
  registerControl(app, core, origin);
  return app;
}

function phoneNumberView(a: SandboxAccount, health: NumberHealthState) {
  return {
    id: a.phoneNumberId,
    display_phone_number: displayPhoneNumber(a.phoneNumber),
    verified_name: a.verifiedName,
    code_verification_status: 'VERIFIED',
    quality_rating: health.qualityRating,
    messaging_limit_tier: health.messagingLimitTier,
    whatsapp_business_manager_messaging_limit: health.messagingLimitTier,
    platform_type: 'CLOUD_API',
    throughput: { level: health.throughputLevel },
  };
}
