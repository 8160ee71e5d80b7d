import { useQueryClient } from '@tanstack/react-query';
import { Download, FileUp, Search, UserPlus } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Contact } from '@shared/schemas/entities';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { useAttributes } from '../../../lib/queries/attributes';
import { useIsAdmin, useWorkspaceId } from '../../../lib/queries/session';
import { toastError } from '../../../lib/api-client';
import { useWorkspaceEvents } from '../../../lib/workspace-events';
import { audienceKeys } from '../api/keys';
import { dropContact } from '../api/drop-contact';
import { downloadContacts } from '../api/export-contacts';
import { useSegments } from '../../../lib/queries/segments';
import { ContactDialog } from './contact-dialog';
import { AddContactDialog } from './add-contact-dialog';
import { StartConversationDialog } from './start-conversation-dialog';
import { useContactCount } from '../api/count-contacts';
import { ContactsTable } from './contacts-table';
import { ImportHistoryList } from './import-history-list';
import { ImportWizard } from './import-wizard';

const ALL = 'all';

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** Audience: the contacts (search, segment filter, attribute columns, editing), CSV import and its history. */
export function AudiencePage() {
  const workspaceId = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const qc = useQueryClient();
  const attributes = useAttributes(workspaceId);
  const contactAttributes = (attributes.data ?? []).filter((a) => a.type === 'contact');
  const segments = useSegments(workspaceId);
  const [view, setView] = useState<'contacts' | 'imports'>('contacts');
  const [text, setText] = useState('');
  const search = useDebounced(text.trim(), 250);
  const [segmentId, setSegmentId] = useState<string>(ALL);
  const [optOut, setOptOut] = useState<string>(ALL);
  const [editing, setEditing] = useState<Contact | null>(null);
  const [starting, setStarting] = useState<Contact | null>(null);
  const [importing, setImporting] = useState(false);
  const [adding, setAdding] = useState(false);
  const [loaded, setLoaded] = useState<{ n: number; more: boolean }>({ n: 0, more: false });
  const onCount = useCallback((n: number, more: boolean) => setLoaded({ n, more }), []);

  // Contacts created or changed elsewhere (imports, other agents, inbound messages): refresh the lists, at most
  // once a second however many events arrive.
  const refresh = useRef<ReturnType<typeof setTimeout> | null>(null);
  useWorkspaceEvents(workspaceId, (e) => {
    if (e.type === 'contact.deleted') {
      dropContact(qc, workspaceId, e.payload.contactId);
      return;
    }
    if (e.type !== 'contact.created' && e.type !== 'contact.updated' && e.type !== 'import.finished' && e.type !== 'import.progress') return;
    if (e.type.startsWith('import.')) void qc.invalidateQueries({ queryKey: audienceKeys.imports(workspaceId) });
    if (e.type === 'import.progress' || refresh.current) return;
    refresh.current = setTimeout(() => {
      refresh.current = null;
      void qc.invalidateQueries({ queryKey: audienceKeys.contacts(workspaceId) });
    }, 1000);
  });

  const exportFilter = { search, segmentId: segmentId === ALL ? null : segmentId, optedOut: optOut === ALL ? null : optOut === 'out' };
  const filtered = !!search || segmentId !== ALL || optOut !== ALL;
  // The exact total: the loaded rows when every page is in, else the server's count of the same filter.
  const total = useContactCount(workspaceId, exportFilter, loaded.more);
  const shownTotal = loaded.more && total.data ? total.data.count : loaded.n;
  const segmentOptions = [{ value: ALL, label: 'All contacts' }, ...(segments.data ?? []).map((s) => ({ value: s.id, label: s.name }))];
  return (
    <Tabs value={view} onValueChange={(v) => setView(v as 'contacts' | 'imports')} className="flex h-full min-h-0 flex-col">
      <header className="flex h-14 shrink-0 items-center gap-3 border-b border-border bg-surface px-6">
        <h1 className="text-[17px] font-semibold text-fg">Audience</h1>
        <TabsList aria-label="Audience views" className="ml-4">
          <TabsTrigger value="contacts">Contacts</TabsTrigger>
          <TabsTrigger value="imports">Import history</TabsTrigger>
        </TabsList>
        <div className="ml-auto flex gap-2">
          {isAdmin && (
            <Button
              variant="secondary"
              title={filtered ? 'Download the contacts of this search or segment as CSV' : 'Download all contacts as CSV'}
              onClick={() => void downloadContacts(workspaceId, exportFilter).catch(toastError)}
            >
              <Download aria-hidden /> {filtered ? 'Export these' : 'Export CSV'}
            </Button>
          )}
          <Button variant="secondary" onClick={() => setAdding(true)}>
            <UserPlus aria-hidden /> Add contact
          </Button>
          <Button onClick={() => setImporting(true)}>
            <FileUp aria-hidden /> Import contacts
          </Button>
        </div>
      </header>
      <TabsContent value="contacts" className="flex min-h-0 flex-1 flex-col bg-surface data-[state=inactive]:hidden">
        <div className="flex items-center gap-3 border-b border-border px-6 py-3">
          <div className="relative w-80">
            <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-fg-subtle" aria-hidden />
            <Input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Search name, phone, e-mail or @username" aria-label="Search contacts" className="pl-8" />
          </div>
          <Select aria-label="Segment" value={segmentId} onValueChange={setSegmentId} options={segmentOptions} className="w-56" />
          <Select
            aria-label="Campaign opt-out"
            value={optOut}
            onValueChange={setOptOut}
            options={[
              { value: ALL, label: 'Any campaign status' },
              { value: 'out', label: 'Opted out' },
              { value: 'in', label: 'Subscribed' },
            ]}
            className="w-48"
          />
          <p className="ml-auto text-[12px] text-fg-muted" aria-live="polite">
            {shownTotal.toLocaleString()}
            {loaded.more && total.data === undefined ? '+' : ''} {shownTotal === 1 ? 'contact' : 'contacts'}
          </p>
        </div>
        <ContactsTable
          workspaceId={workspaceId}
          search={search}
          segmentId={segmentId === ALL ? null : segmentId}
          optedOut={optOut === ALL ? null : optOut === 'out'}
          attributes={contactAttributes}
          onEdit={setEditing}
          onCount={onCount}
        />
      </TabsContent>
      <TabsContent value="imports" className="flex min-h-0 flex-1 flex-col bg-surface data-[state=inactive]:hidden">
        {view === 'imports' && <ImportHistoryList workspaceId={workspaceId} />}
      </TabsContent>
      {editing && (
        <ContactDialog contact={editing} attributes={contactAttributes} workspaceId={workspaceId} canDelete={isAdmin}
          onStartConversation={() => (setStarting(editing), setEditing(null))}
          onClose={() => setEditing(null)}
        />
      )}
      {starting && <StartConversationDialog contact={starting} workspaceId={workspaceId} onClose={() => setStarting(null)} />}
      {adding && <AddContactDialog workspaceId={workspaceId} onClose={() => setAdding(false)} />}
      {importing && (
        <ImportWizard
          workspaceId={workspaceId}
          attributes={attributes.data ?? []}
          onClose={() => setImporting(false)}
          onFinished={() => {
            void qc.invalidateQueries({ queryKey: audienceKeys.contacts(workspaceId) });
            void qc.invalidateQueries({ queryKey: audienceKeys.imports(workspaceId) });
          }}
        />
      )}
    </Tabs>
  );
}
