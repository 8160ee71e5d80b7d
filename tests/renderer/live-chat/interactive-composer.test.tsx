// @vitest-environment happy-dom
/**
 * Reply buttons and list menus from the composer: the form holds the agent to WhatsApp's limits (Add
 * disabled at 3 buttons and at 10 rows in all, counters and the shared schema's messages for titles that are too
 * long) and sends a valid message through POST /message/interactive.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { InteractiveButton } from '../../../src/renderer/src/features/live-chat/components/interactive-composer';
import { type FakeServer, fakeServer, renderWithQuery } from './harness';
import { ids, message } from './fixtures';

let server: FakeServer;
beforeEach(() => {
  server = fakeServer();
  server.on('POST', /\/message\/interactive$/, ({ body }: { body: { body: string } }) => ({
    status: 201,
    body: message({ type: 'reply', text: body.body, creator: 'agent', memberId: ids.member, status: 'sent' }),
  }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function openForm(onSent = vi.fn()) {
  renderWithQuery(<InteractiveButton conversationId={ids.conversation} onSent={onSent} />);
  await userEvent.click(screen.getByRole('button', { name: 'Send buttons or a list' }));
  return screen.getByRole('dialog', { name: 'Buttons or a list' });
}
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });

it('stops at three reply buttons and refuses a title over 20 characters; a valid message is sent', async () => {
  const onSent = vi.fn();
  const dialog = await openForm(onSent);
  type(within(dialog).getByLabelText('Message'), 'When should we deliver?');
  const add = within(dialog).getByRole('button', { name: 'Add button' });
  await userEvent.click(add);
  await userEvent.click(add);
  expect(within(dialog).getAllByLabelText(/^Button \d$/)).toHaveLength(3);
  expect(add).toBeDisabled();
  expect(dialog).toHaveTextContent('WhatsApp allows at most 3 reply buttons.');

  const [first, second, third] = within(dialog).getAllByLabelText(/^Button \d$/);
  type(first, 'Morning, before noon please'); // 27 characters
  type(second, 'Afternoon');
  type(third, 'Evening');
  expect(within(dialog).getByText('27/20')).toBeInTheDocument();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send buttons' }));
  expect(await within(dialog).findByText('A button title can be at most 20 characters')).toBeInTheDocument();
  expect(first).toHaveAttribute('aria-invalid', 'true');
  expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

  type(first, 'Morning');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send buttons' }));
  await waitFor(() => expect(onSent).toHaveBeenCalled());
  const post = server.calls.find((c) => c.method === 'POST')!;
  expect(post.body).toEqual({
    conversationId: ids.conversation,
    type: 'buttons',
    body: 'When should we deliver?',
    buttons: [{ title: 'Morning' }, { title: 'Afternoon' }, { title: 'Evening' }],
  });
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});

it('allows at most 10 rows across sections, and holds row titles to 24 and descriptions to 72 characters', async () => {
  const dialog = await openForm();
  await userEvent.click(within(dialog).getByRole('radio', { name: 'List menu' }));
  type(within(dialog).getByLabelText('Message'), 'Pick a dish');
  type(within(dialog).getByLabelText('Menu button'), 'See the menu');
  const addRow = () => within(dialog).getAllByRole('button', { name: 'Add row' });
  for (let i = 0; i < 5; i++) await userEvent.click(addRow()[0]); // 6 rows in section 1
  await userEvent.click(within(dialog).getByRole('button', { name: 'Add section' }));
  for (let i = 0; i < 3; i++) await userEvent.click(addRow()[1]); // 4 rows in section 2: 10 in all
  expect(within(dialog).getAllByLabelText(/^Row \d+$/)).toHaveLength(10);
  for (const b of addRow()) expect(b).toBeDisabled();
  expect(within(dialog).getByRole('button', { name: 'Add section' })).toBeDisabled();
  expect(dialog).toHaveTextContent('WhatsApp allows at most 10 rows in all sections together.');

  within(dialog).getAllByLabelText(/^Row \d+$/).forEach((el, i) => type(el, `Dish ${i + 1}`));
  type(within(dialog).getAllByLabelText(/^Row \d+$/)[0], 'A very long dish name, too');
  type(within(dialog).getAllByLabelText(/^Row \d+ description/)[1], 'x'.repeat(73));
  type(within(dialog).getAllByLabelText(/^Section title/)[0], 'Mains');
  type(within(dialog).getAllByLabelText(/^Section title/)[1], 'Desserts');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send list' }));
  expect(await within(dialog).findByText('A row title can be at most 24 characters')).toBeInTheDocument();
  expect(within(dialog).getByText('A row description can be at most 72 characters')).toBeInTheDocument();
  expect(within(dialog).getByText('73/72')).toBeInTheDocument();
  expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

  // Fixed, the list goes with its two sections and ten rows.
  type(within(dialog).getAllByLabelText(/^Row \d+$/)[0], 'Fish pie');
  type(within(dialog).getAllByLabelText(/^Row \d+ description/)[1], 'With peas');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send list' }));
  await waitFor(() => expect(server.calls.some((c) => c.method === 'POST')).toBe(true));
  const body = server.calls.find((c) => c.method === 'POST')!.body as { type: string; sections: { title: string; rows: unknown[] }[] };
  expect(body.type).toBe('list');
  expect(body.sections.map((s) => [s.title, s.rows.length])).toEqual([['Mains', 6], ['Desserts', 4]]);
});
