import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from '@tanstack/react-router';
import { Megaphone, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { limits } from '@shared/limits';
import { messages } from '@shared/messages';
import type { CampaignOutcome } from '@shared/schemas/campaign-canvas';
import { CampaignType, type CampaignListEntry } from '@shared/schemas/entities';
import { ListPage } from '../../../components/layout/list-page';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog, FormDialog } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
import { TBody, TD, TH, THead, TR, Table } from '../../../components/ui/table';
import { toast } from 'sonner';
import { cn } from '../../../lib/cn';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useIsAdmin, useWorkspaceId } from '../../../lib/queries/session';
import { useCancelCampaignSchedule } from '../api/cancel-campaign-schedule';
import { useCreateCampaign } from '../api/create-campaign';
import { useCampaignListLive } from '../hooks/use-campaign-list-live';
import { useDeleteCampaign } from '../api/delete-campaign';
import { useCampaigns } from '../api/get-campaigns';
import { CampaignStatusBadge } from './campaign-status';
import { countTiles, outcomeLabel } from './results/outcomes';
import { RetargetDialog } from './results/retarget-dialog';

const count = new Intl.NumberFormat();
/** The list's result columns (CampaignCounts, counted for every campaign in one aggregate query). */
const countColumns = [
  { key: 'recipients', label: 'Recipients', hint: 'Contacts targeted' },
  { key: 'sent', label: 'Sent', hint: 'Accepted by WhatsApp' },
  { key: 'delivered', label: 'Delivered', hint: 'Reached the phone' },
  { key: 'read', label: 'Read', hint: 'Opened' },
  { key: 'replied', label: 'Replied', hint: 'Wrote back within 72 hours' },
  { key: 'failed', label: 'Failed', hint: 'Refused by WhatsApp' },
  { key: 'unknown', label: 'Unknown', hint: 'Outcome unknown, not resent' },
  { key: 'optedOut', label: 'Opted out', hint: 'Skipped: opted out' },
] as const;
/** The outcome a count column retargets (Recipients has none). */
const outcomeOf = (key: string): CampaignOutcome | null => countTiles.find((t) => t.key === key)?.outcome ?? null;

/** `/campaigns`: template campaigns with their results; an admin retargets the recipients behind any count. */
export function CampaignsPage() {
  const workspaceId = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const campaigns = useCampaigns(workspaceId);
  const remove = useDeleteCampaign(workspaceId);
  const [creating, setCreating] = useState(false);
  const [retarget, setRetarget] = useState<{ campaign: CampaignListEntry; outcome: CampaignOutcome } | null>(null);
  const navigate = useNavigate();
  const cancelSchedule = useCancelCampaignSchedule(workspaceId);
  useCampaignListLive(workspaceId);

  return (
    <>
      <ListPage
        title="Campaigns"
        description="Send approved templates to a segment, once or whenever your systems trigger it."
        actions={
          isAdmin && (
            <Button onClick={() => setCreating(true)}>
              <Plus /> New campaign
            </Button>
          )
        }
        query={campaigns}
        noun="campaigns"
        empty={
          <EmptyState
            icon={Megaphone}
            title="No campaigns yet"
            description="A campaign sends a template to a segment of your audience."
            action={isAdmin && <Button onClick={() => setCreating(true)}>New campaign</Button>}
          />
        }
      >
        {(data) => (
          <Table aria-label="Campaigns">
            <THead>
              <tr>
                <TH>Campaign</TH>
                <TH>Status</TH>
                {countColumns.map((c) => (
                  <TH key={c.key} className="text-right" title={c.hint}>
                    {c.label}
                  </TH>
                ))}
                <TH className="hidden xl:table-cell">Created</TH>
                {isAdmin && <TH actions />}
              </tr>
            </THead>
            <TBody>
              {data.map((c) => {
                return (
                  <TR key={c.id}>
                    <TD>
                      <Link to="/campaigns/$campaignId" params={{ campaignId: c.id }} className="font-medium hover:underline">
                        {c.name}
                      </Link>
                      <div className="text-[11px] text-fg-muted">{c.type === 'oneTime' ? 'One-time' : 'Recurring'}</div>
                    </TD>
                    <TD>
                      <CampaignStatusBadge status={c.status} />
                      {c.status === 'scheduled' && c.scheduledAt && (
                        <div className="mt-0.5 flex items-center gap-1 text-[11px] text-fg-muted">
                          {formatDateTime(c.scheduledAt)}
                          {isAdmin && (
                            <Button
                              variant="link"
                              size="sm"
                              className="text-[11px]"
                              aria-label={`Cancel the schedule of ${c.name}`}
                              onClick={() =>
                                cancelSchedule.mutate(c.id, { onSuccess: () => toast.success(`${c.name} is a draft again`) })
                              }
                            >
                              Cancel
                            </Button>
                          )}
                        </div>
                      )}
                    </TD>
                    {countColumns.map((col) => {
                      const n = c.counts[col.key];
                      const outcome = outcomeOf(col.key);
                      return (
                        <TD key={col.key} className={cn('text-right tabular-nums', !n && 'text-fg-subtle')}>
                          {isAdmin && outcome && n > 0 ? (
                            <Button
                              variant="link"
                              size="sm"
                              className="tabular-nums"
                              title={`Retarget: a new campaign for these ${count.format(n)} recipients`}
                              aria-label={`Retarget the ${count.format(n)} ${outcomeLabel(outcome).toLowerCase()} recipients of ${c.name}`}
                              onClick={() => setRetarget({ campaign: c, outcome })}
                            >
                              {count.format(n)}
                            </Button>
                          ) : (
                            count.format(n)
                          )}
                        </TD>
                      );
                    })}
                    <TD className="hidden whitespace-nowrap text-fg-muted xl:table-cell">{formatDate(c.createdAt)}</TD>
                    {isAdmin && (
                      <TD actions>
                        <ConfirmDialog
                          title={`Delete ${c.name}?`}
                          description={
                            c.status === 'inProgress' || c.status === 'active' || c.status === 'paused'
                              ? 'It is stopped first (nothing more is sent), then deleted with its logs.'
                              : 'Its send history is deleted with it.'
                          }
                          onConfirm={() => remove.mutateAsync(c.id)}
                          deleteLabel={`Delete ${c.name}`}
                        />
                      </TD>
                    )}
                  </TR>
                );
              })}
            </TBody>
          </Table>
        )}
      </ListPage>
      {creating && <CreateCampaignDialog workspaceId={workspaceId} onClose={() => setCreating(false)} />}
      {retarget && (
        <RetargetDialog
          campaign={retarget.campaign}
          outcome={retarget.outcome}
          onClose={() => setRetarget(null)}
          onCreated={(created) => {
            toast.success(`${created.name} is ready: finish its steps and deploy`);
            void navigate({ to: '/campaigns/$campaignId', params: { campaignId: created.id } });
          }}
        />
      )}
    </>
  );
}

const CampaignForm = z.object({
  name: z.string().trim().min(1, { error: messages.fieldEmpty }).max(limits.text.title),
  type: CampaignType,
});

function CreateCampaignDialog({ workspaceId, onClose }: { workspaceId: string; onClose: () => void }) {
  const create = useCreateCampaign(workspaceId);
  const navigate = useNavigate();
  const form = useForm<z.infer<typeof CampaignForm>>({ resolver: zodResolver(CampaignForm), defaultValues: { name: '', type: 'oneTime' } });
  return (
    <FormDialog
      title="New campaign"
      submitLabel="Create campaign"
      pending={create.isPending}
      onClose={onClose}
      onSubmit={form.handleSubmit((v) =>
            create.mutate(
              { workspaceId, ...v },
              { onSuccess: (c) => void navigate({ to: '/campaigns/$campaignId', params: { campaignId: c.id } }) },
            ),
          )}
    >
      <FormField label="Name" error={form.formState.errors.name?.message}>
        <Input autoFocus placeholder="Winter sale" {...form.register('name')} />
      </FormField>
      <SelectField
        control={form.control}
        name="type"
        label="Type"
        hint={(type) => (type === 'oneTime' ? 'Sent once to a segment.' : 'Sent whenever your systems call its trigger.')}
        options={[
          { value: 'oneTime', label: 'One-time' },
          { value: 'recurring', label: 'Recurring' },
        ]}
      />
    </FormDialog>
  );
}
