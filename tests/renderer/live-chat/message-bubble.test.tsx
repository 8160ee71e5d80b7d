// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setIdTokenSource } from '../../../src/renderer/src/lib/id-token';
import { MessageBubble } from '../../../src/renderer/src/features/live-chat/components/message-bubble';
import { messagePreview } from '../../../src/renderer/src/features/live-chat/utils/message-content';
import { message } from './fixtures';

afterEach(cleanup);

const bubble = () => screen.getByRole('article');

describe('MessageBubble renders every message type', () => {
  it('a message the business sent from the WhatsApp Business app: outbound, marked "Sent from the phone"', () => {
    render(<MessageBubble message={message({ text: 'Ready at 4pm!', creator: 'agent', status: 'sent', sentFromPhone: true })} />);
    expect(bubble()).toHaveAccessibleName(/Sent text message/);
    expect(within(bubble()).getByText('Sent from the phone')).toBeInTheDocument();
    cleanup();
    render(<MessageBubble senderName="Ada" message={message({ text: 'From Parley', creator: 'agent', status: 'sent', sentFromPhone: false })} />);
    expect(screen.queryByText('Sent from the phone')).toBeNull();
  });

  it('text: the body, received on the left without ticks', () => {
    render(<MessageBubble message={message({ text: 'Where is my order?' })} />);
    expect(bubble()).toHaveAccessibleName(/Received text message/);
    expect(screen.getByText('Where is my order?')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Sent|Delivered|Read/ })).toBeNull();
  });

  it('reply: header, body, footer and the reply buttons', () => {
    render(
      <MessageBubble
        senderName="Support bot"
        message={message({
          type: 'reply',
          creator: 'bot',
          status: 'delivered',
          header: { type: 'text', text: 'Delivery options' },
          text: 'How would you like to receive it?',
          footer: 'Tap a button',
          action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'Home delivery' } }, { type: 'reply', reply: { id: 'b', title: 'Pick up' } }] },
        })}
      />,
    );
    expect(screen.getByText('Delivery options')).toBeInTheDocument();
    expect(screen.getByText('How would you like to receive it?')).toBeInTheDocument();
    expect(screen.getByText('Tap a button')).toBeInTheDocument();
    expect(screen.getByText('Home delivery')).toBeInTheDocument();
    expect(screen.getByText('Pick up')).toBeInTheDocument();
    expect(screen.getByText('Support bot')).toBeInTheDocument();
  });

  it('list: the button opens its sections and rows', async () => {
    render(
      <MessageBubble
        message={message({
          type: 'list',
          creator: 'bot',
          status: 'read',
          header: { type: 'text', text: 'Delivery slot' },
          text: 'Pick a slot',
          footer: 'Local times',
          action: {
            button: 'Choose a slot',
            sections: [
              { title: 'Morning', rows: [{ id: 'm1', title: '08:00 – 10:00', description: 'Early bird' }] },
              { title: 'Afternoon', rows: [{ id: 'a1', title: '14:00 – 16:00' }] },
            ],
          },
        })}
      />,
    );
    expect(screen.getByText('Delivery slot')).toBeInTheDocument();
    expect(screen.getByText('Local times')).toBeInTheDocument();
    const open = screen.getByRole('button', { name: /Choose a slot/ });
    expect(screen.queryByText('08:00 – 10:00')).toBeNull();
    await userEvent.click(open);
    expect(await screen.findByText('08:00 – 10:00')).toBeInTheDocument();
    expect(screen.getByText('Early bird')).toBeInTheDocument();
    expect(screen.getByText('Afternoon')).toBeInTheDocument();
    expect(screen.getByText('14:00 – 16:00')).toBeInTheDocument();
  });

  it('image: the picture with its caption as text and alt', () => {
    render(<MessageBubble message={message({ type: 'image', mediaUrl: 'https://cdn.example.com/p.jpg', text: 'The hamper' })} />);
    const img = screen.getByRole('img', { name: 'The hamper' });
    expect(img).toHaveAttribute('src', 'https://cdn.example.com/p.jpg');
    expect(screen.getByText('The hamper')).toBeInTheDocument();
  });

  it('image stored on the server: fetched with the user’s token and shown from a blob', async () => {
    setIdTokenSource(async () => 'id-token-1');
    const fetchMock = vi.fn(async () => new Response(new Blob(['png'], { type: 'image/png' })));
    vi.stubGlobal('fetch', fetchMock);
    render(<MessageBubble message={message({ type: 'image', mediaUrl: 'http://127.0.0.1:4000/files/ws/a.png', text: null })} />);
    const img = await screen.findByRole('img', { name: 'Image' });
    expect(img.getAttribute('src')).toMatch(/^blob:/);
    expect(fetchMock).toHaveBeenCalledWith('http://127.0.0.1:4000/files/ws/a.png', { headers: { authorization: 'Bearer id-token-1' } });
    vi.unstubAllGlobals();
  });

  it('a signed link is used as it is', () => {
    const url = 'http://127.0.0.1:4000/files/ws/b.png?expires=1&sig=abc';
    render(<MessageBubble message={message({ type: 'image', mediaUrl: url, text: null })} />);
    expect(screen.getByRole('img', { name: 'Image' })).toHaveAttribute('src', url);
  });

  it('video: a player, or an honest placeholder without a file', () => {
    const { rerender } = render(<MessageBubble message={message({ type: 'video', mediaUrl: 'https://cdn.example.com/v.mp4', text: 'Unboxing' })} />);
    expect(document.querySelector('video')).toHaveAttribute('src', 'https://cdn.example.com/v.mp4');
    rerender(<MessageBubble message={message({ type: 'video', mediaUrl: null, text: 'Unboxing' })} />);
    expect(screen.getByText('Video unavailable')).toBeInTheDocument();
  });

  it('document: a link named after the file', () => {
    render(
      <MessageBubble
        message={message({ type: 'document', creator: 'agent', status: 'sent', mediaUrl: 'https://cdn.example.com/files/invoice-1042.pdf', text: 'Your invoice' })}
      />,
    );
    const link = screen.getByRole('link', { name: /invoice-1042\.pdf/ });
    expect(link).toHaveAttribute('href', 'https://cdn.example.com/files/invoice-1042.pdf');
    expect(screen.getByText('Your invoice')).toBeInTheDocument();
  });

  it('template: marked as a template with its header, body, footer and buttons', () => {
    render(
      <MessageBubble
        senderName="Ada Agent"
        message={message({
          type: 'template',
          creator: 'agent',
          status: 'read',
          text: null,
          templateComponents: {
            name: 'order_update',
            language: 'en_US',
            components: [
              { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
              { type: 'BODY', text: 'Hi {{1}}, your order is {{2}}.' },
              { type: 'FOOTER', text: 'Harbour Foods' },
              { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Track order' }] },
              { type: 'header', parameters: [{ type: 'text', text: '#1042' }] },
              { type: 'body', parameters: [{ type: 'text', text: 'Grace' }, { type: 'text', text: 'on its way' }] },
            ],
          },
        })}
      />,
    );
    expect(screen.getByText('Template · order_update')).toBeInTheDocument();
    expect(screen.getByText('Order #1042')).toBeInTheDocument();
    expect(screen.getByText('Hi Grace, your order is on its way.')).toBeInTheDocument();
    expect(screen.getByText('Harbour Foods')).toBeInTheDocument();
    expect(screen.getByText('Track order')).toBeInTheDocument();
  });

  it('flow: header, body and the call to action', () => {
    render(
      <MessageBubble
        message={message({
          type: 'flow',
          creator: 'bot',
          status: 'delivered',
          header: { type: 'text', text: 'Rate your delivery' },
          text: 'It takes 20 seconds',
          footer: 'Harbour Foods',
          action: { name: 'flow', parameters: { flow_cta: 'Open survey', flow_id: '1' } },
        })}
      />,
    );
    expect(screen.getByText('Rate your delivery')).toBeInTheDocument();
    expect(screen.getByText('It takes 20 seconds')).toBeInTheDocument();
    expect(screen.getByText('Open survey')).toBeInTheDocument();
  });

  it('a failed send says why, in the bubble', () => {
    render(
      <MessageBubble message={message({ creator: 'agent', status: 'failed', failureReason: 'The customer’s number is not on WhatsApp', text: 'Hi' })} />,
    );
    const b = bubble();
    expect(within(b).getByRole('note')).toHaveTextContent('Not delivered: The customer’s number is not on WhatsApp');
    expect(within(b).getByRole('img', { name: 'Not delivered: The customer’s number is not on WhatsApp' })).toBeInTheDocument();
  });

  it('odd JSON in header or action does not break the view', () => {
    render(<MessageBubble message={message({ type: 'list', header: 42, action: 'nonsense', text: 'Still readable' })} />);
    expect(screen.getByText('Still readable')).toBeInTheDocument();
  });
});

describe('messagePreview (the list line)', () => {
  it('names media and falls back to the template body', () => {
    expect(messagePreview(message({ type: 'image', text: null }))).toBe('📷 Photo');
    expect(messagePreview(message({ type: 'document', text: 'Invoice' }))).toBe('📄 Invoice');
    expect(
      messagePreview(message({ type: 'template', text: null, templateComponents: [{ type: 'BODY', text: 'Your order shipped' }] })),
    ).toBe('Your order shipped');
    expect(messagePreview(message({ text: 'two\n lines' }))).toBe('two lines');
  });
});
