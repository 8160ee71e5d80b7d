/**
 * WhatsApp message templates: submitted to Meta for review and stored with Meta's id and status; the status
 * webhook (whatsapp/template-reviews.ts) and a sync change the status later; deleting removes the template at Meta first.
 */
import type { z } from 'zod';
import type { WhatsappTemplate } from '../../shared';
import type { CreateTemplateBody } from '../../shared/schemas/requests';
import type { MultipartSpec } from '../../shared/api/routes';
import { badRequest, conflict, notFound } from '../errors';
import * as ch from '../repositories/channel';
import * as r from '../repositories/resources';
import type { WorkspaceContext } from './caller';
import type { Channel } from '../whatsapp/channel';
import { GraphApiError, type GraphClient } from '../whatsapp/graph-client';
import { productErrorOf, viaGraph } from '../whatsapp/graph-failure';
import type { ServiceDeps } from './context';
import { isUniqueViolation } from '../db/client';
import type { SyncCounts, TemplateSync } from './template-sync';
import type { FastifyRequest } from 'fastify';
import { receiveUpload } from './uploads';
import { type PageRequest, mapPage } from '../repositories/pagination';

const templateExists = (name: string, language: string) =>
  conflict(`A template named ${name} in ${language} exists already on this WhatsApp number`);

/** Meta answers "not found" for a template deleted there already (code 100 with these subcodes). */
const goneAtMeta = (err: unknown) => err instanceof GraphApiError && err.code === 100 && (err.subcode === 2593002 || err.subcode === 33);

export function templateService(d: ServiceDeps, channel: Channel, graph: GraphClient, sync: TemplateSync) {
  const ex = () => d.db.db;

  return {
    list: async (ctx: WorkspaceContext, query: PageRequest) => mapPage(await r.whatsappTemplates.page(ex(), ctx.workspaceId, query), r.toTemplate),
    async create(ctx: WorkspaceContext, body: z.output<typeof CreateTemplateBody>): Promise<WhatsappTemplate> {
      const account = await ch.account(ex(), ctx.workspaceId, body.whatsappAccountId);
      if (!account) throw notFound('WhatsApp account not found');
      const header = body.components.find((c) => c.type === 'HEADER');
      if (header && ['IMAGE', 'VIDEO', 'DOCUMENT'].includes(header.format) && !header.example?.header_handle?.length) {
        throw badRequest('A media header needs a sample: upload one first (example.header_handle)');
      }
      if (await ch.templateByName(ex(), ctx.workspaceId, account.id, body.name, body.language)) throw templateExists(body.name, body.language);
      const media = body.mediaUrl
        ? await d.files.resolveReference(body.mediaUrl, { workspaceId: ctx.workspaceId, field: 'mediaUrl', allowExternal: true })
        : null;

      const created = await viaGraph(d.log, 'create template', () =>
        graph.createTemplate(channel.credsOf(account), {
          name: body.name,
          language: body.language,
          category: body.category,
          components: body.components as Record<string, unknown>[],
        }),
      );
      try {
        const row = await d.db.transaction(async (tx) => {
          const inserted = await r.whatsappTemplates.insert(tx, {
            workspaceId: ctx.workspaceId,
            whatsappAccountId: account.id,
            name: body.name,
            language: body.language,
            category: body.category,
            components: body.components,
            mediaUrl: media?.url ?? null,
            status: created.status,
            whatsappTemplateId: created.id,
            memberId: ctx.caller.member.id,
          });
          return inserted;
        });
        return r.toTemplate(row);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // A template sync (its review webhook) may have listed it from Meta between Meta's answer and this insert.
        const synced = await ch.templateByMetaId(ex(), ctx.workspaceId, account.id, created.id);
        if (!synced) throw templateExists(body.name, body.language);
        const row = await ch.updateTemplate(ex(), ctx.workspaceId, synced.id, {
          components: body.components,
          mediaUrl: media?.url ?? null,
          memberId: ctx.caller.member.id,
        });
        return r.toTemplate(row ?? synced);
      }
    },

    /** Deletes at Meta (this language only, by hsm_id), then here. A template already gone at Meta just goes. */
    async remove(ctx: WorkspaceContext, id: string): Promise<{ success: true }> {
      const tpl = await r.whatsappTemplates.get(ex(), ctx.workspaceId, id);
      if (!tpl) throw notFound('Template not found');
      const account = await ch.account(ex(), ctx.workspaceId, tpl.whatsappAccountId);
      if (account && tpl.whatsappTemplateId) {
        try {
          await graph.deleteTemplate(channel.credsOf(account), tpl.name, tpl.whatsappTemplateId);
        } catch (err) {
          if (!goneAtMeta(err)) {
            d.log.warn({ kind: (err as GraphApiError).kind, code: (err as GraphApiError).code }, 'template delete refused by WhatsApp');
            throw productErrorOf(err);
          }
        }
      }
      await r.whatsappTemplates.remove(ex(), ctx.workspaceId, id);
      return { success: true };
    },

    /**
     * Pulls every template of the workspace's numbers from Meta (template-sync.ts): statuses of known ones are
     * updated, templates made elsewhere (WhatsApp Manager) are added when their components fit Parley's shape.
     */
    async sync(ctx: WorkspaceContext): Promise<SyncCounts> {
      const total: SyncCounts = { updated: 0, imported: 0 };
      for (const account of await ch.accountsOfWorkspace(ex(), ctx.workspaceId)) {
        const counts = await viaGraph(d.log, 'list templates', () => sync.syncAccount(account, ctx.caller.member.id));
        total.updated += counts.updated;
        total.imported += counts.imported;
      }
      return total;
    },

    /**
     * A header sample: kept in the file store (assetUrl, for the template's mediaUrl) and uploaded through the
     * Resumable Upload API of the workspace's first WhatsApp number (FBhandle, for example.header_handle).
     */
    async uploadMedia(ctx: WorkspaceContext, request: FastifyRequest, spec: MultipartSpec): Promise<{ assetUrl: string; FBhandle: string }> {
      const account = await ch.firstAccount(ex(), ctx.workspaceId);
      if (!account) throw badRequest('Connect a WhatsApp number first: template media is uploaded through it');
      const creds = channel.credsOf(account);
      const stored = await receiveUpload(request, spec, d.files, { workspaceId: ctx.workspaceId, area: 'template-media' });
      const meta = await d.files.stat(stored.key);
      const chunks: Buffer[] = [];
      for await (const chunk of await d.files.open(stored.key)) chunks.push(chunk as Buffer);
      const { handle } = await viaGraph(d.log, 'resumable upload', () =>
        graph.resumableUpload(creds, {
          data: Buffer.concat(chunks),
          fileName: meta?.fileName ?? 'sample',
          mimeType: meta?.mimeType ?? 'application/octet-stream',
        }),
      );
      return { assetUrl: stored.url, FBhandle: handle };
    },
  };
}
