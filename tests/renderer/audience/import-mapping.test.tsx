// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Attribute } from '../../../src/shared/schemas/entities';
import { ImportWizard } from '../../../src/renderer/src/features/audience/components/import-wizard';
import { guessMapping, mappingErrors, toColumnAttributeMap } from '../../../src/renderer/src/features/audience/utils/column-mapping';
import { parseCsvPreview } from '../../../src/renderer/src/features/audience/utils/csv-preview';
import { setIdTokenSource } from '../../../src/renderer/src/lib/id-token';
import { FakeEventSource, type FakeServer, fakeServer, renderWithQuery } from '../live-chat/harness';

const workspaceId = '11111111-1111-4111-8111-111111111111';
const attr = (name: string, format: Attribute['format'] = 'text'): Attribute => ({
  id: `a-${name}`,
  name,
  createdAt: '2026-01-01T00:00:00.000Z',
  description: null,
  type: 'contact',
  format,
  workspaceId,
  memberId: 'm',
});
const csv = 'Mobile,Full name,E-mail,Plan,Notes\n+14155550123,Grace Hopper,grace@example.com,gold,"likes, commas"\n+447700900123,Alan Turing,,silver,\n';

describe('CSV preview and column mapping (pure)', () => {
  it('parses the header and first rows, quotes included', () => {
    const p = parseCsvPreview(csv);
    expect(p.columns).toEqual(['Mobile', 'Full name', 'E-mail', 'Plan', 'Notes']);
    expect(p.rows[0]).toEqual(['+14155550123', 'Grace Hopper', 'grace@example.com', 'gold', 'likes, commas']);
    expect(p.rows).toHaveLength(2);
  });

  it('a file cut after the preview bytes drops its incomplete last line', () => {
    const p = parseCsvPreview('phone,name\n+1415555,Ann\n+1415556,Bo', 10, false);
    expect(p.rows).toEqual([['+1415555', 'Ann']]);
  });

  it('guesses phoneNumber, name, email and attributes by column name', () => {
    expect(guessMapping(['Mobile', 'Full name', 'E-mail', 'Plan', 'Notes'], ['plan'])).toEqual({
      Mobile: 'phoneNumber',
      'Full name': 'name',
      'E-mail': 'email',
      Plan: 'plan',
      Notes: '',
    });
  });

  it('guesses user_id and username columns, and takes a user id column in place of a phone column', () => {
    expect(guessMapping(['user_id', 'Username', 'Name'], [])).toEqual({ user_id: 'userId', Username: 'username', Name: 'name' });
    expect(mappingErrors(['user_id', 'Name'], { user_id: 'userId', Name: 'name' })).toEqual([]);
    expect(mappingErrors(['Username'], { Username: 'username' })).toEqual(['At least one column must be mapped to phoneNumber']);
  });

  it('requires a phoneNumber column, with the spec’s message, and one column per target', () => {
    const cols = ['a', 'b'];
    expect(mappingErrors(cols, { a: 'name', b: '' })).toEqual(['At least one column must be mapped to phoneNumber']);
    expect(mappingErrors(cols, { a: 'phoneNumber', b: 'phoneNumber' })).toEqual(['Columns “a” and “b” are both mapped to Phone number']);
    expect(mappingErrors(cols, { a: 'phoneNumber', b: 'plan' })).toEqual([]);
    expect(toColumnAttributeMap(cols, { a: 'phoneNumber', b: '' })).toEqual([
      { columnName: 'a', attribute: 'phoneNumber' },
      { columnName: 'b', attribute: null },
    ]);
  });
});

describe('ImportWizard', () => {
  let server: FakeServer;
  beforeEach(() => {
    vi.stubGlobal('EventSource', FakeEventSource);
    setIdTokenSource(async () => 'test-token');
    server = fakeServer();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  async function pickFile() {
    renderWithQuery(<ImportWizard workspaceId={workspaceId} attributes={[attr('plan'), attr('orders', 'number')]} onClose={() => {}} />);
    await userEvent.upload(screen.getByLabelText('CSV file'), new File([csv], 'contacts.csv', { type: 'text/csv' }));
    return screen.findByRole('combobox', { name: 'Map column Mobile' });
  }

  it('previews the first rows parsed in the browser, with a guessed mapping', async () => {
    const mobile = await pickFile();
    expect(mobile).toHaveTextContent('Phone number');
    expect(screen.getByRole('combobox', { name: 'Map column Plan' })).toHaveTextContent('Attribute: plan');
    expect(screen.getByRole('combobox', { name: 'Map column Notes' })).toHaveTextContent('Don’t import');
    expect(screen.getByRole('cell', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'likes, commas' })).toBeInTheDocument();
  });

  it('refuses to import without a phoneNumber column, saying so', async () => {
    const mobile = await pickFile();
    await userEvent.click(mobile);
    await userEvent.click(await screen.findByRole('option', { name: 'Don’t import' }));
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('At least one column must be mapped to phoneNumber');
    expect(server.calls).toHaveLength(0);
  });

  it('uploads the file, creates the import with the mapping, shows progress then the result', async () => {
    server.on('POST', /^\/import-history\/upload$/, () => ({ status: 201, body: { fileUrl: '/files/imports/contacts.csv' } }));
    const history = { id: 'imp-1', fileName: 'contacts.csv', fileUrl: '/files/imports/contacts.csv', workspaceId, status: 'pending', createdAt: new Date().toISOString(), memberId: 'm' };
    server.on('POST', /^\/import-history$/, () => ({ status: 201, body: history }));
    server.on('GET', /\/import-history$/, { items: [history], nextCursor: null });
    await pickFile();
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    const bar = await screen.findByRole('progressbar', { name: 'Import progress' });
    const create = server.calls.find((c) => c.method === 'POST' && c.path === '/import-history');
    expect(create?.body).toEqual({
      fileName: 'contacts.csv',
      fileUrl: '/files/imports/contacts.csv',
      workspaceId,
      columnAttributeMap: [
        { columnName: 'Mobile', attribute: 'phoneNumber' },
        { columnName: 'Full name', attribute: 'name' },
        { columnName: 'E-mail', attribute: 'email' },
        { columnName: 'Plan', attribute: 'plan' },
        { columnName: 'Notes', attribute: null },
      ],
    });
    const ev = (type: string, payload: unknown) => FakeEventSource.emit(type, { seq: Math.floor(Math.random() * 1e6) + 1, workspaceId, type, createdAt: new Date().toISOString(), payload });
    ev('import.progress', { importHistory: history, processed: 1, total: 2 });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    ev('import.finished', {
      importHistory: { ...history, status: 'completed', createdCount: 1, updatedCount: 0, rejectedCount: 1, errorReportUrl: 'https://files.example.com/report.csv' },
      processed: 2,
      total: 2,
    });
    expect(await screen.findByText('Import finished')).toBeInTheDocument();
    const counts = screen.getByText('Rejected').closest('div')!;
    expect(within(counts).getByText('1')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Download the error report/ })).toHaveAttribute('href', 'https://files.example.com/report.csv');
  });

  it('imports a file of WhatsApp user ids without a phone column', async () => {
    server.on('POST', /^\/import-history\/upload$/, () => ({ status: 201, body: { fileUrl: '/files/imports/ids.csv' } }));
    const history = { id: 'imp-2', fileName: 'ids.csv', fileUrl: '/files/imports/ids.csv', workspaceId, status: 'pending', createdAt: new Date().toISOString(), memberId: 'm' };
    server.on('POST', /^\/import-history$/, () => ({ status: 201, body: history }));
    server.on('GET', /\/import-history$/, { items: [history], nextCursor: null });
    renderWithQuery(<ImportWizard workspaceId={workspaceId} attributes={[]} onClose={() => {}} />);
    const ids = 'user_id,username,name\nUS.13491208655302741918,maria,Maria\n';
    await userEvent.upload(screen.getByLabelText('CSV file'), new File([ids], 'ids.csv', { type: 'text/csv' }));
    expect(await screen.findByRole('combobox', { name: 'Map column user_id' })).toHaveTextContent('WhatsApp user ID');
    expect(screen.getByRole('combobox', { name: 'Map column username' })).toHaveTextContent('WhatsApp username');
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByRole('progressbar', { name: 'Import progress' });
    const create = server.calls.find((c) => c.method === 'POST' && c.path === '/import-history');
    expect((create?.body as { columnAttributeMap: unknown }).columnAttributeMap).toEqual([
      { columnName: 'user_id', attribute: 'userId' },
      { columnName: 'username', attribute: 'username' },
      { columnName: 'name', attribute: 'name' },
    ]);
  });

  it('a server refusal is shown as status: message', async () => {
    server.on('POST', /^\/import-history\/upload$/, () => ({
      status: 501,
      body: { statusCode: 501, message: 'File uploads are not available on this server yet', error: 'Not Implemented' },
    }));
    const { toast } = await import('sonner');
    const spy = vi.spyOn(toast, 'error');
    await pickFile();
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(spy).toHaveBeenCalledWith('501: File uploads are not available on this server yet'));
  });
});
