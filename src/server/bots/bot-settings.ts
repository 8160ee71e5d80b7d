/** A workspace's bot settings: the From address of its bots' e-mails (null: the server's SMTP_FROM). */
import type { z } from 'zod';
import type { BotSettings, BotSettingsBody } from '../../shared/schemas/bot-canvas';
import { botEmailFromOf, setBotEmailFrom } from '../repositories/bot-calls';
import type { WorkspaceContext } from '../services/caller';
import type { ServiceDeps } from '../services/context';

export function botSettingsService(d: Pick<ServiceDeps, 'db'>) {
  const ex = () => d.db.db;
  return {
    async settings(ctx: WorkspaceContext): Promise<BotSettings> {
      return { emailFrom: await botEmailFromOf(ex(), ctx.workspaceId) };
    },
    async patch(ctx: WorkspaceContext, body: z.output<typeof BotSettingsBody>): Promise<BotSettings> {
      await setBotEmailFrom(ex(), ctx.workspaceId, body.emailFrom || null);
      return { emailFrom: await botEmailFromOf(ex(), ctx.workspaceId) };
    },
  };
}
