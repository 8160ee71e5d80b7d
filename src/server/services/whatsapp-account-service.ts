/** Connecting a WhatsApp number: credentials checked with the Graph API, the token sealed at rest. */
import type { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { WhatsappAccount } from '../../shared';
import type { CreateWhatsappBody, PatchWhatsappBody } from '../../shared/schemas/requests';
import { HttpError, conflict, notFound } from '../errors';
import * as ch from '../repositories/channel';
import * as r from '../repositories/resources';
import type { WorkspaceContext } from './caller';
import { lastFour } from '../crypto/secrets';
import type { Channel } from '../whatsapp/channel';
import { GraphApiError } from '../whatsapp/graph-errors';
import { productErrorOf } from '../whatsapp/graph-failure';
import { credentialRefusal, graphTarget } from '../whatsapp/graph-target';
import type { GraphClient, GraphCredentials } from '../whatsapp/graph-client';
import type { PhoneNumberInfo } from '../whatsapp/graph-types';
import type { ServiceDeps } from './context';
import { isUniqueViolation } from '../db/client';
import type { TemplateSync } from './template-sync';
import type { NumberHealth } from './number-health';
import { type PageRequest, mapPage } from '../repositories/pagination';

const alreadyConnected = () => conflict('This WhatsApp number is already connected');

/** What a new connection sets going: the number's templates listed from Meta and its health stored. */
interface OnConnect {
  templatesSync: TemplateSync;
  health: NumberHealth;
}

export function whatsappAccountService(d: ServiceDeps, channel: Channel, graph: GraphClient, onConnect: OnConnect) {
  const ex = () => d.db.db;
  const target = graphTarget(d.config.graphApiUrl);

  /** The token must see the phone number id, and the number behind it must be the one entered. */
  async function checkCredentials(creds: GraphCredentials, phoneNumber: string): Promise<PhoneNumberInfo> {
    let info;
    try {
      info = await graph.getPhoneNumber(creds);
    } catch (err) {
      d.log.warn({ kind: (err as GraphApiError).kind, code: (err as GraphApiError).code }, 'WhatsApp account check failed');
      // 409, not 400: the client shows a 400 as 'Bad Request Exception' (spec section 8), and this must be read.
      if (err instanceof GraphApiError && err.kind === 'invalid_token') throw conflict(credentialRefusal(target, 'token'));
      if (err instanceof GraphApiError && err.kind === 'invalid_request') throw conflict(credentialRefusal(target, 'phoneNumberId'));
      throw productErrorOf(err);
    }
    const shown = info.display_phone_number.replace(/\D/g, '');
    if (shown && shown !== phoneNumber.replace(/\D/g, '')) {
      throw conflict(`This Phone Number ID belongs to ${info.display_phone_number}, not to ${phoneNumber}`);
    }
    return info;
  }

  /**
   * After the number is stored: its health from the check's answer, and the templates it already has at Meta
   *. A sync that fails is logged: the number is connected, and the templates screen can retry.
   */
  async function afterConnect(row: ch.AccountRow, info: PhoneNumberInfo, memberId: string): Promise<ch.AccountRow> {
    const stored = await onConnect.health.store(row, info);
    try {
      const counts = await onConnect.templatesSync.syncAccount(stored, memberId);
      d.log.info({ account: row.id, ...counts }, 'templates synced on connect');
    } catch (err) {
      d.log.warn({ account: row.id, err: (err as Error).message }, 'template sync on connect failed');
    }
    return stored;
  }

  return {
    list: async (ctx: WorkspaceContext, query: PageRequest) => mapPage(await r.whatsappAccounts.page(ex(), ctx.workspaceId, query), r.toWhatsappAccount),
    /**
     * Checks with the Graph API that the token may act for the phone number id (and that it is the number
     * entered), then stores the account with its token encrypted. One number belongs to one workspace.
     */
    async create(ctx: WorkspaceContext, body: z.output<typeof CreateWhatsappBody>): Promise<WhatsappAccount> {
      if (!channel.hasSecrets) throw new HttpError(503, 'SECRETS_KEY is not configured');
      const raw = body.phoneNumber.trim();
      const phoneNumber = parsePhoneNumberFromString(raw.startsWith('+') ? raw : `+${raw}`)?.number ?? raw;
      if (await ch.accountByPhoneNumberId(ex(), body.phoneNumberId)) throw alreadyConnected();

      const info = await checkCredentials(
        { token: body.token, phoneNumberId: body.phoneNumberId, wabaAccountId: body.wabaAccountId, appId: body.appId },
        phoneNumber,
      );
      let row: ch.AccountRow;
      try {
        row = await r.whatsappAccounts.insert(ex(), {
          workspaceId: ctx.workspaceId,
          phoneNumber,
          wabaAccountId: body.wabaAccountId,
          appId: body.appId,
          phoneNumberId: body.phoneNumberId,
          tokenCiphertext: channel.sealToken(body.token, body.phoneNumberId),
          tokenLast4: lastFour(body.token),
          ...(body.throughputPerSecond !== undefined && { throughputPerSecond: body.throughputPerSecond }),
          memberId: ctx.caller.member.id,
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw alreadyConnected();
        throw err;
      }
      return r.toWhatsappAccount(await afterConnect(row, info, ctx.caller.member.id));
    },

    /**
     * A new token for a connected number (addition), checked like a new connection before it replaces the old;
     * and/or the number's send rate (its pacer follows at the next send).
     */
    async update(ctx: WorkspaceContext, id: string, body: z.output<typeof PatchWhatsappBody>): Promise<WhatsappAccount> {
      const account = await ch.account(ex(), ctx.workspaceId, id);
      if (!account) throw notFound('WhatsApp account not found');
      const changes: Partial<typeof account> = {};
      if (body.token !== undefined) {
        if (!channel.hasSecrets) throw new HttpError(503, 'SECRETS_KEY is not configured');
        await checkCredentials(
          { token: body.token, phoneNumberId: account.phoneNumberId, wabaAccountId: account.wabaAccountId, appId: account.appId },
          account.phoneNumber,
        );
        changes.tokenCiphertext = channel.sealToken(body.token, account.phoneNumberId);
        changes.tokenLast4 = lastFour(body.token);
      }
      if (body.throughputPerSecond !== undefined) changes.throughputPerSecond = body.throughputPerSecond;
      const row = await r.whatsappAccounts.update(ex(), ctx.workspaceId, id, changes);
      if (!row) throw notFound('WhatsApp account not found');
      return r.toWhatsappAccount(row);
    },
  };
}
