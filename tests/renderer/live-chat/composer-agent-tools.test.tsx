// @vitest-environment happy-dom
/**
 * The agents' tools in the composer and timeline: `/` canned replies by keyboard with the contact's values and a
 * warning for an empty one, files refused in words before any upload, notes with @mentions, note bubbles shown
 * apart, search words marked.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Composer } from '../../../src/renderer/src/features/live-chat/components/composer';
import { cannedQuery, mentionQuery } from '../../../src/renderer/src/features/live-chat/components/composer-assist';
import { MessageBubble } from '../../../src/renderer/src/features/live-chat/components/message-bubble';
import { highlightRuns } from '../../../src/renderer/src/features/live-chat/components/message-text';
import { customerWindow } from '../../../src/renderer/src/features/live-chat/utils/window';
import { ids, message } from './fixtures';
import { type FakeServer, fakeServer, renderWithQuery } from './harness';

let server: FakeServer;
const open = () => customerWindow(new Date().toISOString());
const grace = { name: 'Grace Hopper', phoneNumber: '+14155550123', email: null, country: null, city: '', attributes: { plan: 'gold' } };
const members = [
  { id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'Alan Turing' },
  { id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', name: 'Ada Lovelace' },
];

beforeEach(() => {
  server = fakeServer();
  server.on('GET', /\/canned-replies$/, {
    items: [
      { id: '11111111-1111-4111-8111-111111111111', workspaceId: ids.workspace, scope: 'workspace', shortcut: 'shipping', text: 'Hi {{name}}, your {{plan}} order ships from {{city}} today.', memberId: members[0].id, createdAt: '2026-11-23T10:00:00.000Z', updatedAt: '2026-11-23T10:00:00.000Z' },
      { id: '22222222-2222-4222-8222-222222222222', workspaceId: ids.workspace, scope: 'personal', shortcut: 'thanks', text: 'Thanks {{name}}!', memberId: members[0].id, createdAt: '2026-11-23T10:00:00.000Z', updatedAt: '2026-11-23T10:00:00.000Z' },
    ],
    nextCursor: null,
  });
});
afterEach(() => cleanup());

describe('the composer’s helpers', () => {
  it('reads / and @ where they are typed', () => {
    expect(cannedQuery('/ship')).toBe('ship');
    expect(cannedQuery('/')).toBe('');
    expect(cannedQuery('see /ship')).toBeNull();
    expect(cannedQuery('/ship it')).toBeNull();
    expect(mentionQuery('thanks @Al', 10)).toEqual({ query: 'Al', at: 7 });
    expect(mentionQuery('mail me at ada@x.com', 20)).toBeNull();
  });
  it('marks search words as prefixes, any case, never inside a word', () => {
    expect(highlightRuns('Your Order and reorders', ['ord'])).toEqual([{ text: 'Your ' }, { text: 'Order', mark: true }, { text: ' and reorders' }]);
  });
});

describe('canned replies in the composer', () => {
  it('/ opens the list, arrows and Enter insert one with the contact’s values, and an empty one is flagged and blocks sending', async () => {
    renderWithQuery(<Composer conversationId={ids.conversation} workspaceId={ids.workspace} window={open()} contact={grace} members={members} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(box, '/');
    const list = await screen.findByRole('listbox', { name: 'Canned replies' });
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(2));
    await userEvent.type(box, 'sh');
    expect(within(list).getAllByRole('option')).toHaveLength(1);
    expect(box).toHaveAttribute('aria-activedescendant', within(list).getByRole('option').id);
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box).toHaveValue('Hi Grace Hopper, your gold order ships from {{city}} today.');
    expect(screen.getByTestId('canned-missing')).toHaveTextContent('This contact has no value for {{city}}: replace it before sending.');

    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Replace {{city}} before sending');
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);

    // Replaced by hand: the warning goes, and it sends.
    server.on('POST', /^\/message$/, ({ body }: { body: { text: string } }) => ({ status: 201, body: message({ creator: 'agent', text: body.text }) }));
    await userEvent.clear(box);
    await userEvent.type(box, 'Hi Grace Hopper, your gold order ships from Lisbon today.{Enter}');
    await waitFor(() => expect(server.calls.find((c) => c.path === '/message')?.body).toEqual({ conversationId: ids.conversation, text: 'Hi Grace Hopper, your gold order ships from Lisbon today.' }));
  });

  it('Escape closes the list and keeps the text', async () => {
    // A conversation of its own: what is typed stays as that conversation's draft.
    renderWithQuery(<Composer conversationId="66666666-6666-4666-8666-666666666666" workspaceId={ids.workspace} window={open()} contact={grace} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(box, '/th');
    await screen.findByRole('listbox');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box).toHaveValue('/th');
  });
});

describe('attachments', () => {
  it('refuses a file WhatsApp would refuse, in words, before uploading anything', async () => {
    renderWithQuery(<Composer conversationId={ids.conversation} workspaceId={ids.workspace} window={open()} />);
    const input = screen.getByTestId('composer-file-input') as HTMLInputElement;
    const big = new File([new Uint8Array(6 * 1024 * 1024)], 'huge.png', { type: 'image/png' });
    await userEvent.upload(input, big);
    expect(await screen.findByRole('alert')).toHaveTextContent('This file is 6 MB; WhatsApp accepts images up to 5 MB.');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Remove huge.png' }));
    const gif = new File(['GIF89a'], 'cat.gif', { type: 'image/gif' });
    // The picker offers only accepted types; a dropped or pasted file can still be anything.
    await userEvent.upload(input, gif, { applyAccept: false });
    expect(await screen.findByRole('alert')).toHaveTextContent('WhatsApp does not accept files of type image/gif');
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('uploads, then sends the file with the text as its caption', async () => {
    server.on('POST', /\/conversation\/.+\/media$/, () => ({ status: 201, body: { mediaUrl: '/files/x/whatsapp-media/y/invoice.pdf', type: 'document', mimeType: 'application/pdf', fileName: 'invoice.pdf', size: 9 } }));
    server.on('POST', /^\/message\/media$/, () => ({ status: 201, body: message({ type: 'document', creator: 'agent', text: 'Your invoice' }) }));
    renderWithQuery(<Composer conversationId={ids.conversation} workspaceId={ids.workspace} window={open()} />);
    await userEvent.upload(screen.getByTestId('composer-file-input') as HTMLInputElement, new File(['%PDF-1.4'], 'invoice.pdf', { type: 'application/pdf' }));
    expect(screen.getByTestId('attachment-preview')).toHaveTextContent('invoice.pdf');
    await userEvent.type(screen.getByRole('textbox', { name: 'Caption' }), 'Your invoice{Enter}');
    await waitFor(() => expect(server.calls.some((c) => c.path === '/message/media')).toBe(true));
    expect(server.calls.find((c) => c.path === '/message/media')?.body).toEqual({ conversationId: ids.conversation, mediaUrl: '/files/x/whatsapp-media/y/invoice.pdf', caption: 'Your invoice' });
    await waitFor(() => expect(screen.queryByTestId('attachment-preview')).toBeNull());
  });
});

describe('internal notes', () => {
  it('@ suggests members; the note goes to POST /message/note with the mentioned ids, never as a message', async () => {
    server.on('POST', /^\/message\/note$/, () => ({ status: 201, body: message({ type: 'note', creator: 'agent' }) }));
    renderWithQuery(<Composer conversationId={ids.conversation} workspaceId={ids.workspace} window={customerWindow(null)} members={members} />);
    // Outside the window a reply needs a template; a note can still be written.
    await userEvent.click(screen.getByRole('tab', { name: 'Internal note' }));
    const box = screen.getByRole('textbox', { name: 'Internal note' });
    await userEvent.type(box, 'Can you check this @Al');
    const list = await screen.findByRole('listbox', { name: 'Mention a member' });
    expect(within(list).getByRole('option')).toHaveTextContent('@Alan Turing');
    await userEvent.keyboard('{Tab}');
    expect(box).toHaveValue('Can you check this @Alan Turing ');
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(server.calls.find((c) => c.path === '/message/note')?.body).toEqual({ conversationId: ids.conversation, text: 'Can you check this @Alan Turing', mentionedMemberIds: [members[0].id] }),
    );
    expect(server.calls.some((c) => c.path === '/message')).toBe(false);
  });

  it('a note is shown apart from what the customer sees', () => {
    render(<MessageBubble message={message({ type: 'note', creator: 'agent', text: 'VIP: refund without asking' })} senderName="Alan Turing" />);
    const note = screen.getByRole('article', { name: /Internal note by Alan Turing/ });
    expect(note).toHaveTextContent('only your team sees this');
    expect(note).toHaveAttribute('data-type', 'note');
  });
});
