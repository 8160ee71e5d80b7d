// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Composer } from '../../../src/renderer/src/features/live-chat/components/composer';
import { CUSTOMER_WINDOW_MS } from '../../../src/shared/customer-window';
import { customerWindow, lastInboundAt } from '../../../src/renderer/src/features/live-chat/utils/window';
import { ids, message, template } from './fixtures';
import { type FakeServer, fakeServer, renderWithQuery } from './harness';

const now = new Date('2026-11-23T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000).toISOString();
let server: FakeServer;

beforeEach(() => {
  server = fakeServer();
  server.on('GET', /\/whatsapp-templates$/, {
    items: [template(), template({ id: '99999999-9999-4999-8999-999999999999', name: 'pending_one', status: 'PENDING' })],
    nextCursor: null,
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the 24-hour window rule', () => {
  it('is open for 24 hours after the customer’s last message, closed after or when they never wrote', () => {
    expect(customerWindow(hoursAgo(23.9), now).open).toBe(true);
    expect(customerWindow(hoursAgo(24.1), now).open).toBe(false);
    expect(customerWindow(null, now)).toEqual({ open: false, closesAt: null });
    expect(customerWindow(hoursAgo(2), now).closesAt!.getTime()).toBe(Date.parse(hoursAgo(2)) + CUSTOMER_WINDOW_MS);
  });

  it('counts only the customer’s messages, not the agent’s or a bot’s', () => {
    const msgs = [
      message({ creator: 'user', createdAt: hoursAgo(30) }),
      message({ creator: 'agent', createdAt: hoursAgo(1) }),
      message({ creator: 'bot', createdAt: hoursAgo(0.5) }),
    ];
    expect(lastInboundAt(msgs)).toBe(hoursAgo(30));
    expect(customerWindow(lastInboundAt(msgs), now).open).toBe(false);
    expect(lastInboundAt([message({ creator: 'agent' })])).toBeNull();
  });
});

describe('Composer', () => {
  it('inside the window: free text, sent with Enter as POST /message', async () => {
    server.on('POST', /^\/message$/, ({ body }: { body: { text: string } }) => ({
      status: 201,
      body: message({ creator: 'agent', status: 'pending', text: body.text }),
    }));
    const onSent = vi.fn();
    renderWithQuery(
      <Composer conversationId={ids.conversation} workspaceId={ids.workspace} window={customerWindow(new Date().toISOString())} onSent={onSent} />,
    );
    expect(screen.queryByRole('form', { name: 'Send a template' })).toBeNull();
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(box, 'On its way!{Enter}');
    await waitFor(() => expect(onSent).toHaveBeenCalled());
    const post = server.calls.find((c) => c.method === 'POST' && c.path === '/message');
    expect(post?.body).toEqual({ text: 'On its way!', conversationId: ids.conversation });
    expect(box).toHaveValue('');
  });

  it('does not send an empty message', async () => {
    renderWithQuery(<Composer conversationId={ids.conversation} workspaceId={ids.workspace} window={customerWindow(new Date().toISOString())} />);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This field cannot be empty');
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('outside the window: explains why and offers only approved templates, with their parameters', async () => {
    renderWithQuery(<Composer conversationId={ids.conversation} workspaceId={ids.workspace} window={customerWindow(hoursAgo(30), now)} />);
    expect(screen.getByRole('status')).toHaveTextContent(/24-hour window closed/);
    expect(screen.getByRole('status')).toHaveTextContent(/only allows an approved template/);
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();

    const picker = await screen.findByRole('combobox', { name: 'Template' });
    await userEvent.click(picker);
    expect(await screen.findByRole('option', { name: 'order_update · en_US' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /pending_one/ })).toBeNull();
    await userEvent.click(screen.getByRole('option', { name: 'order_update · en_US' }));

    const send = screen.getByRole('button', { name: 'Send template' });
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByPlaceholderText('Header value for {{1}}'), '#1042');
    await userEvent.type(screen.getByPlaceholderText('Value for {{1}}'), 'Grace');
    await userEvent.type(screen.getByPlaceholderText('Value for {{2}}'), 'on its way');
    expect(screen.getByLabelText('Preview')).toHaveTextContent('Order #1042');
    expect(screen.getByLabelText('Preview')).toHaveTextContent('Hi Grace, your order is on its way.');
    expect(send).toBeEnabled();
    server.on('POST', /^\/message\/template$/, () => ({ status: 201, body: message({ type: 'template', creator: 'agent', status: 'pending' }) }));
    await userEvent.click(send);
    await waitFor(() => expect(server.calls.some((c) => c.path === '/message/template')).toBe(true));
    expect(server.calls.find((c) => c.path === '/message/template')?.body).toEqual({
      conversationId: ids.conversation,
      templateId: template().id,
      parameters: { body: ['Grace', 'on its way'], headerText: '#1042' },
    });
  });

  it('shrinks back to one line after sending', async () => {
    server.on('POST', /^\/message$/, () => ({ status: 201, body: message({ creator: 'agent', status: 'pending' }) }));
    renderWithQuery(<Composer conversationId={ids.conversation} workspaceId={ids.workspace} window={customerWindow(new Date().toISOString())} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    Object.defineProperty(box, 'scrollHeight', { configurable: true, get: () => ((box as HTMLTextAreaElement).value ? 120 : 40) });
    await userEvent.type(box, 'one{Shift>}{Enter}{/Shift}two{Shift>}{Enter}{/Shift}three');
    expect(box.style.height).toBe('120px');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(box).toHaveValue(''));
    expect(box.style.height).toBe('auto');
  });

  it('counts characters near WhatsApp’s 4,096 limit and says in words what is wrong past it', async () => {
    renderWithQuery(<Composer conversationId={ids.conversation} workspaceId={ids.workspace} window={customerWindow(new Date().toISOString())} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.click(box);
    await userEvent.paste('x'.repeat(3000));
    expect(screen.queryByText(/\/ 4,096/)).toBeNull();
    await userEvent.paste('x'.repeat(1000));
    expect(screen.getByText(/4,000 \/ 4,096/)).toBeInTheDocument();
    await userEvent.paste('x'.repeat(100));
    expect(screen.getByText(/4,100 \/ 4,096/)).toHaveClass('text-danger');
    await userEvent.keyboard('{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('WhatsApp messages can be at most 4,096 characters. Shorten the message or send it in two parts.');
    expect(alert).not.toHaveTextContent(/Too big|<=/);
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('a customer who never wrote: says no window is open', () => {
    renderWithQuery(<Composer conversationId={ids.conversation} workspaceId={ids.workspace} window={customerWindow(null, now)} />);
    expect(screen.getByRole('status')).toHaveTextContent('This customer has not written to you yet, so no 24-hour window is open.');
  });
});
