/**
 * The bot's life beside its canvas: the number it answers on (PATCH connectWaba), deploy and publish (PATCH
 * isActive: true; a 400 lists every problem of the canvas, each selecting its step), deactivate, "unpublished
 * changes" with discard, and the published versions with restore.
 */
import type { Bot } from '@shared/schemas/entities';
import { ErrorBody } from '@shared/errors';
import { History, Power, Rocket, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { CanvasGraph } from '../../../components/canvas';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog, Dialog, DialogContent } from '../../../components/ui/dialog';
import { NativeSelect } from '../../../components/ui/input';
import { ApiError, errorText } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useMemberDirectory, useWorkspaceId } from '../../../lib/queries/session';
import { useWhatsappAccounts } from '../../../lib/queries/whatsapp-accounts';
import { useDiscardBotChanges, useBotVersions, useRestoreBotVersion } from '../api/bot-versions';
import { useConnectWaba } from '../api/connect-waba';
import { usePatchBot } from '../api/patch-bot';
import type { BotStore } from '../canvas/bot-store';
import { memberName } from '../canvas/editor-context';
import type { BotCanvasNode } from '../canvas/types';

export interface DeployProblem {
  nodeId: string | null;
  message: string;
}

/** The problems of a refused deploy: the 400's `problems` (each with its node), else its message(s). */
export function problemsOf(err: unknown): DeployProblem[] {
  if (!(err instanceof ApiError)) return [{ nodeId: null, message: err instanceof Error ? err.message : String(err) }];
  const listed = (err.body as { problems?: unknown } | null)?.problems;
  if (Array.isArray(listed)) {
    return listed.flatMap((p: { nodeId?: unknown; message?: unknown }) =>
      typeof p?.message === 'string' ? [{ nodeId: typeof p.nodeId === 'string' ? p.nodeId : null, message: p.message }] : [],
    );
  }
  const body = ErrorBody.safeParse(err.body);
  if (!body.success) return [{ nodeId: null, message: err.message }];
  return (Array.isArray(body.data.message) ? body.data.message : [body.data.message]).map((message) => ({ nodeId: null, message }));
}

/** Replaces the editor's canvas by the server's draft (after discard or restore): not an edit, nothing to save. */
function reload(store: BotStore, bot: Bot) {
  store.getState().load(bot.rfInstance as unknown as CanvasGraph<BotCanvasNode>);
  store.temporal.getState().clear();
}

export function PublishBar({ bot, store, readOnly }: { bot: Bot; store: BotStore; readOnly: boolean }) {
  const workspaceId = useWorkspaceId();
  const accounts = useWhatsappAccounts(workspaceId);
  const connect = useConnectWaba(bot.id, workspaceId);
  const patch = usePatchBot(bot.id, workspaceId);
  const discard = useDiscardBotChanges(bot.id);
  const [problems, setProblems] = useState<DeployProblem[] | null>(null);
  const [versionsOpen, setVersionsOpen] = useState(false);

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
    <div className="ml-auto flex flex-wrap items-center justify-end gap-2">
      {bot.isActive ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}
      {bot.publishedVersionId && bot.hasUnpublishedChanges && <Badge tone="amber">Unpublished changes</Badge>}
      {bot.lastDeployedAt && <span className="hidden text-xs text-fg-muted 2xl:inline">Deployed {formatDateTime(bot.lastDeployedAt)}</span>}
      <NativeSelect
        aria-label="WhatsApp number"
        className="h-7 w-40 text-xs"
        disabled={readOnly || connect.isPending}
        value={bot.whatsappAccountId ?? ''}
        onChange={(e) =>
          connect.mutate(e.target.value || null, {
            onSuccess: () => toast.success(e.target.value ? 'Bot connected to the number' : 'Bot disconnected'),
            onError: (err) => toast.error(errorText(err)),
          })
        }
      >
        <option value="">No number</option>
        {accounts.data?.map((a) => (
          <option key={a.id} value={a.id}>
            {a.phoneNumber}
          </option>
        ))}
      </NativeSelect>
      <Button size="sm" variant="ghost" onClick={() => setVersionsOpen(true)}>
        <History /> Versions
      </Button>
      {!readOnly && bot.publishedVersionId && bot.hasUnpublishedChanges && (
        <ConfirmDialog
          title="Discard unpublished changes?"
          description="The canvas goes back to the published version. Your changes since then are lost."
          confirmLabel="Discard changes"
          onConfirm={() =>
            discard.mutateAsync().then((b) => {
              reload(store, b);
              toast.success('Changes discarded');
            })
          }
          trigger={
            <Button size="sm" variant="ghost">
              <Undo2 /> Discard
            </Button>
          }
        />
      )}
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
        <Button size="sm" loading={patch.isPending && patch.variables?.isActive === true} onClick={deploy} disabled={bot.isActive && !bot.hasUnpublishedChanges}>
          <Rocket /> {bot.isActive ? 'Publish' : 'Deploy'}
        </Button>
      )}
      {problems && (
        <Dialog open onOpenChange={(open) => !open && setProblems(null)}>
          <DialogContent
            title="The bot cannot be deployed yet"
            description="Fix these and deploy again. Choose a problem to go to its step."
            footer={<Button onClick={() => setProblems(null)}>Close</Button>}
          >
            <ul className="flex max-h-80 flex-col gap-1 overflow-y-auto text-[13px]" aria-label="Deploy problems">
              {problems.map((p, i) => (
                <li key={i}>
                  {p.nodeId ? (
                    <button
                      type="button"
                      className="w-full rounded px-1 py-0.5 text-left text-danger hover:bg-danger-soft"
                      onClick={() => {
                        store.getState().select(p.nodeId);
                        setProblems(null);
                      }}
                    >
                      {p.message}
                    </button>
                  ) : (
                    <span className="px-1 text-danger">{p.message}</span>
                  )}
                </li>
              ))}
            </ul>
          </DialogContent>
        </Dialog>
      )}
      {versionsOpen && <VersionsDialog bot={bot} store={store} readOnly={readOnly} onClose={() => setVersionsOpen(false)} />}
    </div>
  );
}

function VersionsDialog({ bot, store, readOnly, onClose }: { bot: Bot; store: BotStore; readOnly: boolean; onClose: () => void }) {
  const versions = useBotVersions(bot.id);
  const restore = useRestoreBotVersion(bot.id);
  const { byId } = useMemberDirectory();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title="Published versions"
        description="Every deploy publishes a version. Running conversations finish on the version they started on. Restoring makes a version the draft; deploy to publish it."
        footer={<Button variant="secondary" onClick={onClose}>Close</Button>}
      >
        {versions.isPending ? (
          <p className="text-[13px] text-fg-muted">Loading versions…</p>
        ) : versions.isError ? (
          <p role="alert" className="text-[13px] text-danger">{errorText(versions.error)}</p>
        ) : versions.data.length === 0 ? (
          <p className="text-[13px] text-fg-muted">Nothing published yet. Deploy the bot to publish its first version.</p>
        ) : (
          <ul className="flex max-h-80 flex-col divide-y divide-border overflow-y-auto" aria-label="Versions">
            {versions.data.map((v) => (
              <li key={v.id} className="flex items-center gap-3 py-2 text-[13px]">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">
                    Version {v.version} {v.isPublished && <Badge tone="green">Live</Badge>}
                  </p>
                  <p className="text-xs text-fg-muted">
                    {formatDateTime(v.createdAt)} by {memberName(byId.get(v.memberId))}
                  </p>
                </div>
                {!readOnly && (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Restore version ${v.version}`}
                    loading={restore.isPending && restore.variables === v.id}
                    onClick={() =>
                      restore.mutate(v.id, {
                        onSuccess: (b) => {
                          reload(store, b);
                          toast.success(`Version ${v.version} is the draft now`);
                          onClose();
                        },
                        onError: (err) => toast.error(errorText(err)),
                      })
                    }
                  >
                    Restore
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
