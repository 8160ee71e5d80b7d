/** An agent opts a contact out of campaigns, or back in (a contact's own STOP / START is in inbound-hooks.ts). */
import { setOptedOut } from '../repositories/campaign-contacts';
import type { WorkspaceContext } from '../services/caller';
import type { ServiceDeps } from '../services/context';

export function campaignOptOutService(d: Pick<ServiceDeps, 'db'>) {
  return {
    async setOptedOut(ctx: WorkspaceContext, contactId: string, optedOut: boolean): Promise<void> {
      await setOptedOut(d.db.db, ctx.workspaceId, [contactId], optedOut ? { source: 'member', memberId: ctx.caller.member.id } : null);
    },
  };
}
