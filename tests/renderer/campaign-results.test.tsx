// @vitest-environment happy-dom
// Campaign results: the list's counts and scheduled start, the campaign page's live counts,
// logs filtered by status and exported, retarget from a count, pause and resume.
import '@testing-library/jest-dom/vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setIdTokenSource } from '../../src/renderer/src/lib/id-token';
import { FakeEventSource, withLayout } from './live-chat/harness';
import { type Answer, defaultAnswers, now, polyfillDom, renderApp, workspace } from './support/app';

const campaignId = '88888888-8888-4888-8888-888888888888';
const retargetId = '77777777-7777-4777-8777-777777777777';
const page = <T,>(items: T[], nextCursor: string | null = null) => ({ status: 200, body: { items, nextCursor } });

function counts(over: Record<string, number> = {}) {
  return { recipients: 0, pending: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, unknown: 0, optedOut: 0, ...over };
}
function campaign(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: campaignId, name: 'Black Friday', createdAt: now, type: 'oneTime', status: 'inProgress', resumeAt: null,
    rfInstance: { nodes: [], edges: [] }, memberId: 'm1', workspaceId: workspace.id, scheduledAt: null, deployedAt: now, triggerKeyHint: null,
    ...over,
  };
}
function log(i: number, deliveryState: string, over: Record<string, unknown> = {}) {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, createdAt: now, phoneNumber: `+1415555${String(i).padStart(4, '0')}`,
    templateName: 'order_ready', messageStatus: deliveryState === 'failed' ? 'failed' : 'success', reason: null, campaignId,
    contactId: null, stepId: 'n2', wamid: null, deliveryState, errorCode: null, updatedAt: now, repliedAt: null, ...over,
  };
}

let restoreLayout: () => void;
beforeAll(() => {
  polyfillDom();
  (globalThis as Record<string, unknown>).EventSource = FakeEventSource;
  setIdTokenSource(async () => 'token');
});
beforeEach(() => {
  restoreLayout?.();
  restoreLayout = withLayout(900, 1400);
});

function answersFor(c = campaign()) {
  const answers: Record<string, Answer> = defaultAnswers();
  let current = c;
  answers[`GET /campaign/${campaignId}`] = () => ({ status: 200, body: current });
  answers[`GET /campaign/${campaignId}/results`] = {
    status: 200,
    body: { counts: counts({ recipients: 3, sent: 3, delivered: 2, read: 1, failed: 1 }), timeline: [], billable: [{ category: 'marketing', messages: 2 }, { category: 'utility', messages: 1 }] },
  };
  answers[`GET /campaign/${campaignId}/logs`] = ({ path }) => {
    void path;
    return page([log(1, 'read'), log(2, 'delivered'), log(3, 'failed', { reason: 'Message undeliverable', errorCode: 131026 })]);
  };
  answers[`POST /campaign/${campaignId}/pause`] = ({ body }) => {
    current = { ...current, status: 'paused', resumeAt: (body as { resumeAt?: string }).resumeAt ?? null };
    return { status: 200, body: current };
  };
  answers[`POST /campaign/${campaignId}/resume`] = () => {
    current = { ...current, status: 'inProgress', resumeAt: null };
    return { status: 200, body: current };
  };
  return answers;
}

describe('campaigns list', () => {
  it('shows each campaign’s counts and a scheduled start that can be canceled', async () => {
    const answers = defaultAnswers();
    const entry = (over: Record<string, unknown>) => ({ ...campaign(over), CampaignLogs: [], logCounts: { success: 0, failed: 0 } });
    answers['GET /workspace/w1/campaigns'] = page([
      entry({ counts: counts({ recipients: 1200, sent: 1150, delivered: 1100, read: 800, replied: 90, failed: 50, unknown: 2, optedOut: 7 }) }),
      entry({ id: retargetId, name: 'Winter', status: 'scheduled', scheduledAt: '2026-12-01T09:00:00.000Z', deployedAt: null, counts: counts() }),
    ]);
    answers[`POST /campaign/${retargetId}/cancel-schedule`] = { status: 200, body: campaign({ id: retargetId, name: 'Winter', status: 'draft', deployedAt: null }) };
    const { calls } = await renderApp('/campaigns', { answers });
    const table = await screen.findByRole('table', { name: 'Campaigns' });
    const header = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(header).toEqual(expect.arrayContaining(['Recipients', 'Sent', 'Delivered', 'Read', 'Replied', 'Failed', 'Unknown', 'Opted out']));
    const row = within(table).getByText('Black Friday').closest('tr')!;
    const cells = within(row).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(expect.arrayContaining(['1,200', '1,150', '1,100', '800', '90', '50', '2', '7']));
    const winter = within(table).getByText('Winter').closest('tr')!;
    expect(within(winter).getByText('Scheduled')).toBeInTheDocument();
    await userEvent.click(within(winter).getByRole('button', { name: 'Cancel the schedule of Winter' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === `/campaign/${retargetId}/cancel-schedule`)).toBe(true));
  });
});

describe('retarget from the campaigns list', () => {
  it('any count of a campaign starts a new draft for exactly those recipients (here: read, not replied)', async () => {
    const answers = defaultAnswers();
    const entry = { ...campaign({ status: 'completed' }), CampaignLogs: [], logCounts: { success: 0, failed: 0 }, counts: counts({ recipients: 1200, sent: 1150, read: 800, replied: 90, failed: 50 }) };
    answers['GET /workspace/w1/campaigns'] = page([entry]);
    const created = campaign({ id: retargetId, name: 'Black Friday: read, not replied', status: 'draft', deployedAt: null });
    answers[`POST /campaign/${campaignId}/retarget`] = { status: 201, body: created };
    answers[`GET /campaign/${retargetId}`] = { status: 200, body: created };
    const { calls, router } = await renderApp('/campaigns', { answers });
    const table = await screen.findByRole('table', { name: 'Campaigns' });
    // Every outcome count is a way in; the recipients total and empty counts are not.
    expect(within(table).getByRole('button', { name: 'Retarget the 50 failed recipients of Black Friday' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /Retarget the 1,200/ })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /unknown recipients/ })).not.toBeInTheDocument();

    await userEvent.click(within(table).getByRole('button', { name: 'Retarget the 800 read recipients of Black Friday' }));
    const dialog = await screen.findByRole('dialog');
    const outcome = within(dialog).getByLabelText('Recipients whose message is');
    expect(outcome).toHaveValue('read');
    await userEvent.selectOptions(outcome, 'readNotReplied');
    expect(within(dialog).getByLabelText('Name of the new campaign')).toHaveValue('Black Friday: read, not replied');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create campaign' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/campaigns/${retargetId}`));
    expect(calls.find((c) => c.path === `/campaign/${campaignId}/retarget`)!.body).toEqual({ outcome: 'readNotReplied', name: 'Black Friday: read, not replied' });
  });

  it('an agent sees the counts but no retarget', async () => {
    const answers = defaultAnswers('agent');
    answers['GET /workspace/w1/campaigns'] = page([{ ...campaign(), CampaignLogs: [], logCounts: { success: 0, failed: 0 }, counts: counts({ recipients: 3, failed: 1 }) }]);
    await renderApp('/campaigns', { answers });
    const table = await screen.findByRole('table', { name: 'Campaigns' });
    expect(within(table).queryByRole('button', { name: /Retarget/ })).not.toBeInTheDocument();
  });
});

describe('campaign results page', () => {
  it('shows the billable messages by pricing category, with their total', async () => {
    await renderApp(`/campaigns/${campaignId}`, { answers: answersFor() });
    const billable = await screen.findByTestId('billable-messages');
    await waitFor(() => expect(within(billable).getByRole('row', { name: /Marketing/ })).toHaveTextContent('2'));
    expect(within(billable).getByRole('row', { name: /Utility/ })).toHaveTextContent('1');
    expect(within(billable).getByRole('row', { name: /Total/ })).toHaveTextContent('3');
  });

  it("says why a running campaign holds recipients: the portfolio's messaging limit, and when room opens", async () => {
    const reason = "Waiting for room in the business portfolio's messaging limit (250 customers in 24 hours, shared by its numbers)";
    await renderApp(`/campaigns/${campaignId}`, { answers: answersFor(campaign({ hold: { reason, until: '2026-12-01T09:00:00.000Z' } })) });
    expect(await screen.findByText(new RegExp(`${reason.replace(/[()]/g, '\\$&')} \\(next room `))).toBeInTheDocument();
  });

  it('shows the code and words of a halt on a paused campaign', async () => {
    const halt = { code: 132015, reason: 'Template order_ready is paused because of low quality.', at: now };
    await renderApp(`/campaigns/${campaignId}`, { answers: answersFor(campaign({ status: 'paused', halt })) });
    expect(await screen.findByText(/halted by WhatsApp \(132015\): Template order_ready is paused because of low quality\./)).toBeInTheDocument();
  });

  it('shows the counts, updates them live, and filters the logs by a count', async () => {
    const { calls } = await renderApp(`/campaigns/${campaignId}`, { answers: answersFor() });
    expect(await screen.findByTestId('count-recipients')).toHaveTextContent('3');
    expect(screen.getByTestId('count-delivered')).toHaveTextContent('2');
    const logs = await screen.findByRole('table', { name: 'Campaign logs' });
    expect(within(logs).getByText('+14155550003').closest('tr')).toHaveTextContent('131026: Message undeliverable');

    act(() =>
      FakeEventSource.emit('campaign.progress', {
        seq: 9, workspaceId: 'w1', type: 'campaign.progress', createdAt: now,
        payload: { campaignId, counts: counts({ recipients: 3, sent: 3, delivered: 3, read: 2, failed: 0 }) },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('count-delivered')).toHaveTextContent('3'));
    expect(screen.getByTestId('count-read')).toHaveTextContent('2');

    await userEvent.click(screen.getByTestId('count-failed'));
    await waitFor(() => expect(calls.some((c) => c.path.startsWith(`/campaign/${campaignId}/logs?`) && c.path.includes('status=failed'))).toBe(true));
    expect(screen.getByLabelText('Filter logs by status')).toHaveValue('failed');
  });

  it('retargets the recipients of a count as a new draft campaign and opens it', async () => {
    const answers = answersFor();
    answers[`POST /campaign/${campaignId}/retarget`] = {
      status: 201,
      body: campaign({ id: retargetId, name: 'Black Friday: failed', status: 'draft', deployedAt: null }),
    };
    answers[`GET /campaign/${retargetId}`] = { status: 200, body: campaign({ id: retargetId, name: 'Black Friday: failed', status: 'draft', deployedAt: null }) };
    const { calls, router } = await renderApp(`/campaigns/${campaignId}`, { answers });
    await userEvent.click(await screen.findByRole('button', { name: 'Retarget failed' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Only with WhatsApp error code/), '131049');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create campaign' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/campaigns/${retargetId}`));
    expect(calls.find((c) => c.path === `/campaign/${campaignId}/retarget`)!.body).toEqual({ outcome: 'failed', errorCode: 131049, name: 'Black Friday: failed' });
  });

  it('exports the filtered logs as a streamed CSV download carrying the token', async () => {
    await renderApp(`/campaigns/${campaignId}`, { answers: answersFor() });
    await screen.findByRole('table', { name: 'Campaign logs' });
    await userEvent.selectOptions(screen.getByLabelText('Filter logs by status'), 'failed');
    const clicked: HTMLAnchorElement[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this);
    };
    try {
      await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
      await waitFor(() => expect(clicked).toHaveLength(1));
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    const url = new URL(clicked[0].href);
    expect(url.pathname).toBe(`/campaign/${campaignId}/logs.csv`);
    expect(url.searchParams.get('status')).toBe('failed');
    expect(url.searchParams.get('token')).toBe('token');
    expect(clicked[0].download).toBe('Black-Friday-logs-failed.csv');
  });

  it('pauses until a time, then resumes', async () => {
    const { calls } = await renderApp(`/campaigns/${campaignId}`, { answers: answersFor() });
    await userEvent.click(await screen.findByRole('button', { name: 'Pause' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pause' }));
    expect(await screen.findByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(screen.getAllByText('Paused').length).toBeGreaterThan(0);
    expect(calls.find((c) => c.path === `/campaign/${campaignId}/pause`)!.body).toEqual({});
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
  });
});
