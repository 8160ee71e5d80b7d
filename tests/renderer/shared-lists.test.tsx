// @vitest-environment happy-dom
// Lists that two screens show are one query: a change made on one screen shows on the other without a reload.
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bot, Contact, WhatsappTemplate } from '../../src/shared/schemas/entities';
import { useContacts } from '../../src/renderer/src/features/audience/api/list-contacts';
import { useCreateBot } from '../../src/renderer/src/features/automation/api/create-bot';
import { useBots } from '../../src/renderer/src/lib/queries/bots';
import { ContactSidebar } from '../../src/renderer/src/features/live-chat/components/contact-sidebar';
import { TemplateSender } from '../../src/renderer/src/features/live-chat/components/template-sender';
import { useDeleteTemplate } from '../../src/renderer/src/features/templates/api/delete-template';
import { useAuthStore } from '../../src/renderer/src/stores/auth-store';
import { contact, ids, template } from './live-chat/fixtures';
import { type FakeServer, fakeServer, renderWithQuery } from './live-chat/harness';

let server: FakeServer;
const page = <T,>(items: T[]) => ({ items, nextCursor: null });

beforeEach(() => {
  useAuthStore.setState({
    status: 'ready',
    user: { uid: 'u1', email: 'ada@acme.com', emailVerified: true, displayName: 'Ada', photoURL: null },
    member: { id: ids.member, uid: 'u1', role: 'admin', createdAt: '2026-01-01T00:00:00.000Z', currentWorkspaceId: ids.workspace, workspaceIds: [ids.workspace], Workspaces: [] },
  });
  server = fakeServer();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** What the templates page does: its delete button. */
function DeleteTemplateButton({ templateId }: { templateId: string }) {
  const del = useDeleteTemplate(ids.workspace);
  return <button onClick={() => del.mutate(templateId)}>Delete template</button>;
}

/** What the bots page does: its create form. */
function CreateBotButton() {
  const create = useCreateBot(ids.workspace);
  return <button onClick={() => create.mutate({ title: 'Returns desk', workspaceId: ids.workspace })}>Create bot</button>;
}

/** Live chat's hand-off menu lists the workspace's bots. */
function HandOffMenu() {
  const bots = useBots(ids.workspace);
  return <ul aria-label="Hand off to">{bots.data?.map((b) => <li key={b.id}>{b.title}</li>)}</ul>;
}

/** The audience table's rows. */
function AudienceRows() {
  const contacts = useContacts(ids.workspace, '', null);
  return <ul aria-label="Audience">{contacts.data?.pages.flatMap((p) => p.items).map((c) => <li key={c.id}>{`${c.name} ${c.attributes.plan ?? ''}`}</li>)}</ul>;
}

function bot(over: Partial<Bot>): Bot {
  return {
    id: '99999999-9999-4999-8999-999999999999',
    title: 'Bot',
    createdAt: '2026-11-01T09:00:00.000Z',
    lastDeployedAt: null,
    isActive: false,
    channel: 'WhatsApp',
    rfInstance: { nodes: [], edges: [], viewport: { x: 0, y: 0, zoom: 1 } },
    memberId: ids.member,
    workspaceId: ids.workspace,
    whatsappAccountId: null,
    publishedVersionId: null,
    hasUnpublishedChanges: true,
    ...over,
  };
}

describe('one list per endpoint', () => {
  it('a template deleted on the templates page leaves live chat’s template sender', async () => {
    let templates: WhatsappTemplate[] = [template()];
    server.on('GET', /\/workspace\/[^/]+\/whatsapp-templates$/, () => ({ body: page(templates) }));
    server.on('DELETE', /\/whatsapp-template\/[^/]+$/, (req: { path: string }) => {
      templates = templates.filter((t) => !req.path.endsWith(t.id));
      return { body: { success: true } };
    });
    renderWithQuery(
      <>
        <TemplateSender conversationId={ids.conversation} workspaceId={ids.workspace} />
        <DeleteTemplateButton templateId={template().id} />
      </>,
    );
    expect(await screen.findByRole('combobox', { name: 'Template' })).toBeInTheDocument();
    const listCalls = () => server.calls.filter((c) => c.method === 'GET' && c.path.endsWith('/whatsapp-templates')).length;
    expect(listCalls()).toBe(1);

    await act(async () => screen.getByRole('button', { name: 'Delete template' }).click());
    expect(await screen.findByText(/No approved template yet/)).toBeInTheDocument();
    expect(listCalls()).toBe(2);
  });

  it('a bot created on the bots page is offered in live chat’s hand-off menu', async () => {
    const bots: Bot[] = [bot({ title: 'Billing' })];
    server.on('GET', /\/workspace\/[^/]+\/bots$/, () => ({ body: page(bots) }));
    server.on('POST', /\/bot$/, () => {
      const created = bot({ id: '99999999-9999-4999-8999-999999999998', title: 'Returns desk' });
      bots.push(created);
      return { status: 201, body: created };
    });
    renderWithQuery(
      <>
        <HandOffMenu />
        <CreateBotButton />
      </>,
    );
    expect(await screen.findByText('Billing')).toBeInTheDocument();
    await act(async () => screen.getByRole('button', { name: 'Create bot' }).click());
    expect(await screen.findByText('Returns desk')).toBeInTheDocument();
  });

  it('a contact edited in a conversation’s sidebar shows the new value in the audience list', async () => {
    let stored: Contact = contact({ attributes: { plan: 'gold' } });
    server.on('GET', /\/workspace\/[^/]+\/attributes$/, {
      items: [{ id: 'a1aaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'plan', type: 'contact', format: 'text', description: null, createdAt: '2026-11-01T09:00:00.000Z', workspaceId: ids.workspace, memberId: ids.member }],
      nextCursor: null,
    });
    server.on('GET', /\/workspace\/[^/]+\/contacts$/, () => ({ body: page([stored]) }));
    server.on('GET', /\/contact\/[^/]+\/conversations$/, page([]));
    server.on('PATCH', /\/contact\/[^/]+$/, (req: { body: { attributes: Record<string, string> } }) => {
      stored = { ...stored, attributes: { ...stored.attributes, ...req.body.attributes } };
      return { body: stored };
    });
    renderWithQuery(
      <>
        <ContactSidebar contact={stored} conversationId={ids.conversation} workspaceId={ids.workspace} />
        <AudienceRows />
      </>,
    );
    expect(await screen.findByText('Grace Hopper gold')).toBeInTheDocument();
    const field = await screen.findByLabelText('plan');
    fireEvent.change(field, { target: { value: 'platinum' } });
    await act(async () => (await screen.findByRole('button', { name: 'Save' })).click());
    await waitFor(() => expect(screen.getByText('Grace Hopper platinum')).toBeInTheDocument());
    expect(server.calls.some((c) => c.method === 'PATCH')).toBe(true);
  });
});
