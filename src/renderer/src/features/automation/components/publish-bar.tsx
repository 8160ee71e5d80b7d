/**
 * The bot's life beside its canvas: the number it answers on (PATCH connectWaba), deploy (PATCH isActive: true;
 * a 400 lists every problem of the canvas, shown in a dialog) and deactivate.
 */
import type { Bot } from '@shared/schemas/entities';
import { ErrorBody } from '@shared/errors';
import { Rocket, Power } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { NativeSelect } from '../../../components/ui/input';
import { ApiError, errorText } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useWorkspaceId } from '../../../lib/queries/session';
import { useWhatsappAccounts } from '../../../lib/queries/whatsapp-accounts';
import { useConnectWaba } from '../api/connect-waba';
import { usePatchBot } from '../api/patch-bot';
import type { BotStore } from '../canvas/bot-store';

/** The problems of a refused deploy: the 400's message list (or its one message). */
export function problemsOf(err: unknown): string[] {
  if (!(err instanceof ApiError)) return [err instanceof Error ? err.message : String(err)];
  const body = ErrorBody.safeParse(err.body);
  if (!body.success) return [err.message];
  return Array.isArray(body.data.message) ? body.data.message : [body.data.message];
}

export function PublishBar({ bot, readOnly }: { bot: Bot; store: BotStore; readOnly: boolean }) {
  const workspaceId = useWorkspaceId();
  const accounts = useWhatsappAccounts(workspaceId);
  const connect = useConnectWaba(bot.id, workspaceId);
  const patch = usePatchBot(bot.id, workspaceId);
  const [problems, setProblems] = useState<string[] | null>(null);

  const deploy = () =>
    patch.mutate(
      { isActive: true },
      {
        onSuccess: () => toast.success(bot.isActive ? 'Changes published' : 'Bot deployed'),
        onError: (err) => {
          if (err instanceof ApiError && (err.status === 400 || err.status === 409)) setProblems(problemsOf(err));
          else toast.error(errorText(err));
        },
      },
    );

  return (
    <div className="ml-auto flex flex-wrap items-center gap-2">
      {bot.isActive ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}
      {bot.lastDeployedAt && <span className="hidden text-xs text-fg-muted lg:inline">Deployed {formatDateTime(bot.lastDeployedAt)}</span>}
      <label className="flex items-center gap-1.5 text-xs text-fg-muted">
        Number
        <NativeSelect
          aria-label="WhatsApp number"
          className="h-7 w-44 text-xs"
          disabled={readOnly || connect.isPending}
          value={bot.whatsappAccountId ?? ''}
          onChange={(e) =>
            connect.mutate(e.target.value || null, {
              onSuccess: () => toast.success(e.target.value ? 'Bot connected to the number' : 'Bot disconnected'),
              onError: (err) => toast.error(errorText(err)),
            })
          }
        >
          <option value="">Not connected</option>
          {accounts.data?.map((a) => (
            <option key={a.id} value={a.id}>
              {a.phoneNumber}
            </option>
          ))}
        </NativeSelect>
      </label>
      {!readOnly && bot.isActive && (
        <Button
          size="sm"
          variant="secondary"
          loading={patch.isPending && patch.variables?.isActive === false}
          onClick={() => patch.mutate({ isActive: false }, { onSuccess: () => toast.success('Bot deactivated'), onError: (err) => toast.error(errorText(err)) })}
        >
          <Power /> Deactivate
        </Button>
      )}
      {!readOnly && (
        <Button size="sm" loading={patch.isPending && patch.variables?.isActive === true} onClick={deploy}>
          <Rocket /> {bot.isActive ? 'Publish' : 'Deploy'}
        </Button>
      )}
      {problems && (
        <Dialog open onOpenChange={(open) => !open && setProblems(null)}>
          <DialogContent
            title="The bot cannot be deployed yet"
            description="Fix these and deploy again. Each step with a problem is marked on the canvas."
            footer={<Button onClick={() => setProblems(null)}>Close</Button>}
          >
            <ul className="flex max-h-80 list-disc flex-col gap-1 overflow-y-auto pl-5 text-[13px] text-danger" aria-label="Deploy problems">
              {problems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          </DialogContent>
        </Dialog>
      )}
    </div>
  );
}
