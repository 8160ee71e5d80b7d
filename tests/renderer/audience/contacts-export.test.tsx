// @vitest-environment happy-dom
/** The audience screen's CSV export, of the current segment, for admins only. */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setIdTokenSource } from '../../../src/renderer/src/lib/id-token';
import { defaultAnswers, now, polyfillDom, renderApp } from '../support/app';

beforeAll(() => {
  polyfillDom();
  setIdTokenSource(async () => 'token');
});

const contact = { id: 'c1', createdAt: now, workspaceId: 'w1', name: 'Ada Lovelace', attributes: {}, channel: 'WhatsApp', phoneNumber: '+14155550101',
  email: null, tags: [], country: null, city: null, meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null, optedOut: false };

function answers(role: 'admin' | 'agent') {
  const a = defaultAnswers(role);
  a['GET /workspace/w1/contacts'] = { status: 200, body: { items: [contact], nextCursor: null } };
  a['GET /workspace/w1/segments'] = {
    status: 200,
    body: { items: [{ id: 's1', name: 'Gold plan', filters: [], createdAt: now, workspaceId: 'w1', memberId: 'm1' }], nextCursor: null },
  };
  return a;
}

async function clickedLinks(action: () => Promise<void>): Promise<HTMLAnchorElement[]> {
  const clicked: HTMLAnchorElement[] = [];
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    clicked.push(this);
  };
  try {
    await action();
    await waitFor(() => expect(clicked).toHaveLength(1));
  } finally {
    HTMLAnchorElement.prototype.click = click;
  }
  return clicked;
}

describe('contacts export', () => {
  it('downloads the contacts of the chosen segment as a streamed CSV carrying the token', async () => {
    await renderApp('/audience', { answers: answers('admin') });
    expect(await screen.findByText('1 contact')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Segment' }));
    await user.click(await screen.findByRole('option', { name: 'Gold plan' }));
    const [link] = await clickedLinks(() => user.click(screen.getByRole('button', { name: 'Export these' })));
    const url = new URL(link.href);
    expect(url.pathname).toBe('/workspace/w1/contacts/export.csv');
    expect(url.searchParams.get('segmentId')).toBe('s1');
    expect(url.searchParams.get('token')).toBe('token');
    expect(link.download).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  it('is not offered to agents', async () => {
    await renderApp('/audience', { answers: answers('agent') });
    expect(await screen.findByText('1 contact')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Export/ })).not.toBeInTheDocument();
  });
});
