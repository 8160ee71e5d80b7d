/**
 * Every CSV file Parley hands out goes through the one writer, so a cell a spreadsheet would run as a formula comes
 * back as text with a leading apostrophe in each of them: the contacts export, a campaign's log export and the
 * import's report of rejected rows.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { multipartBody } from '../support/multipart';

/** What an attacker puts in a cell, one per formula trigger (=, +, -, @, tab, CR) plus the classic DDE payload. */
const formulas = ["+1+cmd|' /C calc'!A0", '=1+2', '+SUM(A1)', '-2+3+cmd', '@SUM(A1)', '\t=1+2', '\r=1+2'];
const escaped = (cell: string) => `'${cell}`;

let ta: TestApp;
let admin: Session;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Formula Works');
});
afterAll(async () => {
  await ta?.close();
});

const rowsOf = (body: string) => parse(body, { columns: true, relax_quotes: true }) as Record<string, string>[];

describe('a formula-looking cell comes back escaped', () => {
  it('in the contacts export', async () => {
    const w = admin.workspaceId;
    await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'note', format: 'text', workspaceId: w } });
    await ta.db.insert(t.contacts).values(
      formulas.map((f, i) => ({ workspaceId: w, name: f, phoneNumber: `+1415555${String(300 + i).padStart(4, '0')}`, attributes: { note: f } })),
    );
    const res = await ta.call('GET', `/workspace/${w}/contacts/export.csv`, { token: admin.token });
    expect(res.statusCode).toBe(200);
    const rows = rowsOf(res.body).filter((r) => r.phoneNumber.startsWith('+14155550'));
    expect(rows.map((r) => r.name).sort()).toEqual(formulas.map(escaped).sort());
    expect(rows.map((r) => r.note).sort()).toEqual(formulas.map(escaped).sort());
    // A phone number stays a number.
    expect(rows.every((r) => /^\+\d+$/.test(r.phoneNumber))).toBe(true);
  });

  it("in a campaign's log export", async () => {
    const w = admin.workspaceId;
    const [campaign] = await ta.db
      .insert(t.campaigns)
      .values({ workspaceId: w, name: 'Formulas', type: 'oneTime', status: 'completed', rfInstance: {}, memberId: admin.member.id })
      .returning();
    await ta.db.insert(t.campaignLogs).values(
      formulas.map((f, i) => ({
        workspaceId: w,
        campaignId: campaign.id,
        stepId: `s${i}`,
        phoneNumber: f,
        templateName: f,
        messageStatus: 'failed' as const,
        deliveryState: 'failed' as const,
        reason: f,
      })),
    );
    const res = await ta.call('GET', `/campaign/${campaign.id}/logs.csv`, { token: admin.token });
    expect(res.statusCode).toBe(200);
    const rows = rowsOf(res.body);
    expect(rows).toHaveLength(formulas.length);
    for (const column of ['phoneNumber', 'templateName', 'reason']) {
      expect(rows.map((r) => r[column]).sort()).toEqual(formulas.map(escaped).sort());
    }
  });

  it("in the import's report of rejected rows, the phone cell included", async () => {
    const w = admin.workspaceId;
    const csv = ['phone,name', ...formulas.map((f) => `"${f.replace(/"/g, '""')}",Mallory`)].join('\n');
    const { payload, headers } = multipartBody({ fileName: 'evil.csv', mimeType: 'text/csv', content: csv });
    const up = await ta.app.inject({ method: 'POST', url: '/import-history/upload', payload, headers: { ...headers, authorization: `Bearer ${admin.token}` } });
    expect(up.statusCode, up.body).toBe(201);
    const created = await ta.call('POST', '/import-history', {
      token: admin.token,
      body: { fileName: 'evil.csv', fileUrl: up.json().fileUrl, workspaceId: w, columnAttributeMap: [{ columnName: 'phone', attribute: 'phoneNumber' }, { columnName: 'name', attribute: 'name' }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    await ta.app.parley.jobs.drain({ timeoutMs: 60_000 });
    const listed = await ta.call('GET', `/workspace/${w}/import-history`, { token: admin.token });
    const entry = listed.json().items.find((i: { id: string }) => i.id === created.json().id);
    expect(entry).toMatchObject({ status: 'completed', rejectedCount: formulas.length });
    const report = await ta.call('GET', new URL(entry.errorReportUrl).pathname, { token: admin.token });
    expect(report.statusCode).toBe(200);
    const [header, first] = report.body.split('\r\n');
    expect(header).toBe('row,value,reason');
    expect(first.startsWith("2,'+1+cmd|' /C calc'!A0,")).toBe(true);
    // The import trims its cells, so a tab or CR in front is gone by then; what is left is still escaped.
    const rows = rowsOf(report.body);
    expect(rows.map((r) => r.value).sort()).toEqual(formulas.map((f) => escaped(f.trim())).sort());
  }, 120_000);
});
