import { Link } from '@tanstack/react-router';
import { FileText, Plus, RefreshCw, Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { ListPage } from '../../../components/layout/list-page';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { TBody, TD, TH, THead, TR, Table } from '../../../components/ui/table';
import { formatDate } from '../../../lib/format';
import { useIsAdmin, useWorkspaceId } from '../../../lib/queries/session';
import { useWhatsappAccounts } from '../../../lib/queries/whatsapp-accounts';
import { useDeleteTemplate } from '../api/delete-template';
import { useSyncTemplates } from '../api/sync-templates';
import { useTemplates } from '../../../lib/queries/templates';
import { useTemplateStatusUpdates } from '../api/template-status-updates';
import { TemplateCategoryChangeNote, TemplateQualityBadge, TemplateStatusBadge } from './template-status';
import { languageName } from './languages';

const ALL = 'all';

interface FiltersProps {
  search: string;
  onSearch: (search: string) => void;
  status: string;
  onStatus: (status: string) => void;
  /** The statuses the templates have, upper case. */
  statuses: string[];
  category: string;
  onCategory: (category: string) => void;
}

function TemplateFilters({ search, onSearch, status, onStatus, statuses, category, onCategory }: FiltersProps) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <div className="relative w-64">
        <Search className="pointer-events-none absolute top-2 left-2.5 size-4 text-fg-subtle" aria-hidden />
        <Input aria-label="Search templates" placeholder="Search by name" value={search} onChange={(e) => onSearch(e.target.value)} className="pl-8" />
      </div>
      <Select
        aria-label="Status"
        className="w-40"
        value={status}
        onValueChange={onStatus}
        options={[{ value: ALL, label: 'All statuses' }, ...statuses.map((s) => ({ value: s, label: s.charAt(0) + s.slice(1).toLowerCase() }))]}
      />
      <Select
        aria-label="Category"
        className="w-44"
        value={category}
        onValueChange={onCategory}
        options={[
          { value: ALL, label: 'All categories' },
          { value: 'MARKETING', label: 'Marketing' },
          { value: 'UTILITY', label: 'Utility' },
          { value: 'AUTHENTICATION', label: 'Authentication' },
        ]}
      />
    </div>
  );
}

/** `/templates`: message templates with their review state; filters by status, category and name. */
export function TemplatesPage() {
  const workspaceId = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const templates = useTemplates(workspaceId);
  useTemplateStatusUpdates(workspaceId);
  const accounts = useWhatsappAccounts(workspaceId);
  const remove = useDeleteTemplate(workspaceId);
  const sync = useSyncTemplates(workspaceId);
  const [status, setStatus] = useState(ALL);
  const [category, setCategory] = useState(ALL);
  const [search, setSearch] = useState('');

  const statuses = useMemo(() => [...new Set((templates.data ?? []).map((t) => t.status.toUpperCase()))].sort(), [templates.data]);
  const filtered = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (templates.data ?? []).filter(
      (t) =>
        (status === ALL || t.status.toUpperCase() === status) &&
        (category === ALL || t.category === category) &&
        (!q || t.name.toLowerCase().includes(q)),
    );
  }, [templates.data, status, category, search]);
  const phoneOf = (id: string) => accounts.data?.find((a) => a.id === id)?.phoneNumber ?? '—';
  const filtering = status !== ALL || category !== ALL || search.trim() !== '';

  return (
    <ListPage
      title="Templates"
      description="Pre-approved messages for starting conversations and campaigns."
      actions={
        isAdmin && (
          <div className="flex gap-2">
            <Button
              variant="secondary"
              onClick={() => sync.mutate()}
              disabled={sync.isPending || (accounts.data?.length ?? 0) === 0}
              title={(accounts.data?.length ?? 0) === 0 ? 'Connect a WhatsApp number first' : 'List the templates your numbers have at WhatsApp'}
            >
              <RefreshCw className={sync.isPending ? 'animate-spin' : undefined} /> {sync.isPending ? 'Syncing…' : 'Sync from WhatsApp'}
            </Button>
            <Button asChild>
              <Link to="/templates/create">
                <Plus /> New template
              </Link>
            </Button>
          </div>
        )
      }
      filters={
        <TemplateFilters search={search} onSearch={setSearch} status={status} onStatus={setStatus} statuses={statuses} category={category} onCategory={setCategory} />
      }
      query={templates}
      noun="templates"
      rows={4}
      isEmpty={() => filtered.length === 0}
      empty={
        filtering ? (
          <EmptyState icon={Search} title="No templates match" description="Try another status, category or name." />
        ) : (
          <EmptyState
            icon={FileText}
            title="No templates yet"
            description="Templates are the messages WhatsApp lets you send first: greetings, order updates, offers."
            action={
              isAdmin && (
                <div className="flex gap-2">
                  {(accounts.data?.length ?? 0) > 0 && (
                    <Button variant="secondary" onClick={() => sync.mutate()} disabled={sync.isPending}>
                      Sync from WhatsApp
                    </Button>
                  )}
                  <Button asChild>
                    <Link to="/templates/create">New template</Link>
                  </Button>
                </div>
              )
            }
          />
        )
      }
    >
      {() => (
        <Table aria-label="Templates">
          <THead>
            <tr>
              <TH>Name</TH>
              <TH>Category</TH>
              <TH>Language</TH>
              <TH>Status</TH>
              <TH>Number</TH>
              <TH>Created</TH>
              {isAdmin && <TH actions />}
            </tr>
          </THead>
          <TBody>
            {filtered.map((t) => {
              const body = t.components.find((c) => c.type === 'BODY');
              return (
                <TR key={t.id}>
                  <TD>
                    <p className="font-medium">{t.name}</p>
                    {body && 'text' in body && <p className="max-w-64 truncate text-xs text-fg-muted 2xl:max-w-sm">{body.text}</p>}
                  </TD>
                  <TD className="text-fg-muted">
                    <span className="capitalize">{t.category.toLowerCase()}</span>
                    <TemplateCategoryChangeNote change={t.categoryChange} />
                  </TD>
                  <TD className="text-fg-muted">{languageName(t.language)}</TD>
                  <TD>
                    <span className="flex flex-wrap gap-1">
                      <TemplateStatusBadge status={t.status} />
                      <TemplateQualityBadge quality={t.quality} />
                    </span>
                  </TD>
                  <TD className="text-fg-muted">{phoneOf(t.whatsappAccountId)}</TD>
                  <TD className="text-fg-muted">{formatDate(t.createdAt)}</TD>
                  {isAdmin && (
                    <TD actions>
                      <ConfirmDialog
                        title={`Delete ${t.name}?`}
                        description="The template is deleted here and at WhatsApp; campaigns using it stop sending."
                        onConfirm={() => remove.mutateAsync(t.id)}
                        deleteLabel={`Delete ${t.name}`}
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
  );
}
