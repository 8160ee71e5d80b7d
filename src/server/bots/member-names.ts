/** Members as a person reads them in a handoff (its event, the desktop notification, the preview's note). */
import type { Executor } from '../db/client';
import type { ServiceDeps } from '../services/context';
import { memberUids } from '../repositories/bot-sessions';

export const unnamedMember = 'A teammate';

/**
 * Display names (else e-mails) of these members from the identity service; a member it cannot name is
 * "A teammate", never a uid or an id.
 */
export async function memberNames(d: Pick<ServiceDeps, 'identity' | 'log'>, ex: Executor, workspaceId: string, memberIds: string[]): Promise<Map<string, string>> {
  const uids = await memberUids(ex, workspaceId, [...new Set(memberIds)]);
  const profiles = await d.identity.profiles([...uids.values()]).catch((err: unknown) => {
    d.log.warn({ err }, 'could not read member profiles for a bot handoff');
    return new Map<string, { displayName: string | null; email: string | null }>();
  });
  return new Map(
    memberIds.map((id) => {
      const p = profiles.get(uids.get(id) ?? '');
      return [id, p?.displayName?.trim() || p?.email || unnamedMember];
    }),
  );
}
