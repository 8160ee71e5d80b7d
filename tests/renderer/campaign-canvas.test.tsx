// @vitest-environment happy-dom
// The campaign editor at /campaigns/{id}: the four node kinds with their forms and the spec's messages, live
// segment count, approved templates with a preview and variable mapping, autosave, deploy with the server's
// problem list, the recurring trigger's key shown once, rename in place, and the locked steps after deploy.
import '@testing-library/jest-dom/vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Answer, defaultAnswers, now, polyfillDom, renderApp, workspace } from './support/app';

beforeAll(() => {
  polyfillDom();
  // The page listens to the workspace event stream; these tests do not exercise it (no server to connect to).
  (globalThis as Record<string, unknown>).EventSource = class {
    onopen: unknown = null;
    onerror: unknown = null;
    onmessage: unknown = null;
    readyState = 0;
    addEventListener() {}
    removeEventListener() {}
    close() {}
  };
  // happy-dom lays nothing out; React Flow shows a node once it has measured it, so give elements a size and
  // report them to the ResizeObserver as a browser would.
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get: () => 280 });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 160 });
  globalThis.ResizeObserver = class {
    constructor(private cb: ResizeObserverCallback) {}
    observe(target: Element) {
      queueMicrotask(() => this.cb([{ target } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver));
    }
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});

const campaignId = '88888888-8888-4888-8888-888888888888';
const page = <T,>(items: T[]) => ({ status: 200, body: { items, nextCursor: null } });
const segment = { id: 's1', name: 'VIP customers', filters: [{ column: 'tags', value: 'vip', operator: 'CONTAINS', conjuction: 'AND' }], createdAt: now, workspaceId: 'w1', memberId: 'm1' };
const account = { id: 'a1', phoneNumber: '+16505550100', wabaAccountId: '1', appId: '2', phoneNumberId: '3', token: '••••cret', workspaceId: 'w1', throughputPerSecond: 80, createdAt: now };
const template = (id: string, name: string, status: string, text: string) => ({
  id, name, status, createdAt: now, language: 'en_US', memberId: 'm1', whatsappTemplateId: null, mediaUrl: null, category: 'MARKETING',
  components: [{ type: 'BODY', text }], workspaceId: 'w1', whatsappAccountId: 'a1',
});
const attribute = { id: 'attr1', name: 'order_id', createdAt: now, description: null, type: 'contact', format: 'text', workspaceId: 'w1', memberId: 'm1' };

function campaign(over: Record<string, unknown> = {}) {
  return {
    id: campaignId, name: 'Black Friday', createdAt: now, type: 'oneTime', status: 'draft', resumeAt: null,
    rfInstance: { nodes: [], edges: [], viewport: { x: 0, y: 0, zoom: 1 } }, memberId: 'm1', workspaceId: workspace.id,
    scheduledAt: null, deployedAt: null, triggerKeyHint: null, ...over,
  };
}

function answersFor(c: ReturnType<typeof campaign>) {
  const answers: Record<string, Answer> = defaultAnswers();
  let saved = c;
  answers[`GET /campaign/${campaignId}`] = () => ({ status: 200, body: saved });
  answers[`PATCH /campaign/${campaignId}`] = ({ body }) => {
    saved = { ...saved, ...(body as object) };
    return { status: 200, body: saved };
  };
  answers['GET /workspace/w1/segments'] = page([segment]);
  answers['POST /workspace/w1/segments/preview'] = { status: 200, body: { count: 1234, items: [] } };
  answers['GET /workspace/w1/whatsapp'] = page([account]);
  answers['GET /workspace/w1/whatsapp-templates'] = page([
    template('t1', 'order_ready', 'APPROVED', 'Hi {{1}}, order {{2}} is ready.'),
    template('t2', 'pending_one', 'PENDING', 'Not yet'),
    { ...template('t3', 'new_collection', 'APPROVED', 'Our new collection is here.'), components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Our new collection is here.' }] },
  ]);
  answers['GET /workspace/w1/attributes'] = page([attribute]);
  return { answers, saved: () => saved };
}

const canvas = () => document.querySelector<HTMLElement>('.react-flow')!;
const lastPatch = (calls: { method: string; path: string; body: unknown }[]) =>
  [...calls].reverse().find((c) => c.method === 'PATCH' && c.path === `/campaign/${campaignId}`)?.body as
    | { rfInstance?: { nodes: { type: string; data: Record<string, unknown> }[]; edges: { source: string; target: string }[] }; name?: string }
    | undefined;

describe('campaign canvas', () => {
  it('builds segment -> template with mapped variables -> delay, with the spec messages until each is filled, and autosaves', async () => {
    const { answers } = answersFor(campaign());
    const { calls } = await renderApp(`/campaigns/${campaignId}`, { answers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Segment trigger/ }));
    expect(await within(canvas()).findByText('Select audience segment!')).toBeInTheDocument();
    // The validation summary names it too.
    expect(within(screen.getByRole('list', { name: 'Problems' })).getByText('Select audience segment!')).toBeInTheDocument();
    // One trigger per campaign: the palette says so.
    expect(screen.getByRole('button', { name: /Segment trigger/ })).toBeDisabled();

    await user.selectOptions(screen.getByLabelText('Audience segment'), 's1');
    expect(await screen.findByText('1,234 contacts in this segment now')).toBeInTheDocument();
    expect(screen.queryAllByText('Select audience segment!')).toEqual([]);

    // Added after the selected trigger, so it is joined to it.
    await user.click(screen.getByRole('button', { name: /Send template/ }));
    expect(within(canvas()).getAllByText('This field cannot be empty')).toHaveLength(2);
    await user.selectOptions(screen.getByLabelText('WhatsApp number'), 'a1');
    const templatePicker = screen.getByLabelText('Template');
    // Only approved templates are offered.
    expect(within(templatePicker).queryByRole('option', { name: /pending_one/ })).not.toBeInTheDocument();
    await user.selectOptions(templatePicker, 't1');
    expect(screen.queryByText('This field cannot be empty')).not.toBeInTheDocument();
    const preview = screen.getByRole('figure', { name: 'WhatsApp preview' });
    expect(preview).toHaveTextContent('Hi {{1}}, order {{2}} is ready.');
    expect(screen.getByText('Map {{1}} body to a contact field, an attribute or fixed text')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Value of {{1}} body'), 'name');
    await user.selectOptions(screen.getByLabelText('Source of {{2}} body'), 'attribute');
    await user.selectOptions(screen.getByLabelText('Value of {{2}} body'), 'attr1');
    expect(preview).toHaveTextContent('Hi ‹Name›, order ‹order_id› is ready.');

    await user.click(screen.getByRole('button', { name: /^Delay/ }));
    await user.clear(screen.getByLabelText('Wait for'));
    expect(within(canvas()).getByText('This field cannot be empty')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Wait for'), '2');
    await user.selectOptions(screen.getByLabelText('Unit'), 'hours');
    expect(await screen.findByText('Ready to deploy')).toBeInTheDocument();

    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('All changes saved'), { timeout: 4000 });
    const rf = lastPatch(calls)!.rfInstance!;
    expect(rf.nodes.map((n) => n.type)).toEqual(['OneTimeTriggerNode', 'SendWhatsappNode', 'DelayNode']);
    expect(rf.nodes[0].data.segmentId).toBe('s1');
    expect(rf.nodes[1].data).toMatchObject({ whatsappAccountId: 'a1', whatsappTemplateId: 't1' });
    expect(rf.nodes[1].data.variables).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ component: 'BODY', variable: '1', source: 'field', value: 'name' }),
        expect.objectContaining({ component: 'BODY', variable: '2', source: 'attribute', value: 'attr1' }),
      ]),
    );
    expect(rf.nodes[2].data).toMatchObject({ waitFor: 2, waitForUnit: 'hours' });
    const [t, s, d] = rf.nodes.map((n) => (n as unknown as { id: string }).id);
    expect(rf.edges.map((e) => [e.source, e.target])).toEqual([
      [t, s],
      [s, d],
    ]);
  });

  it('sets a daily send window on the trigger, refusing a malformed time with a clear message', async () => {
    const trigger = { id: 'n1', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', segmentId: 's1' } };
    const { answers } = answersFor(campaign({ rfInstance: { nodes: [trigger], edges: [], viewport: { x: 0, y: 0, zoom: 1 } } }));
    const { calls } = await renderApp(`/campaigns/${campaignId}`, { answers });
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: 'Only send during the day' });
    expect(screen.getByText(/Sends go at any hour/)).toBeInTheDocument();
    await user.click(toggle);
    expect(screen.getByLabelText('Window start')).toHaveValue('09:00');
    expect(screen.getByLabelText('Window end')).toHaveValue('20:00');
    await waitFor(() => expect(lastPatch(calls)?.rfInstance?.nodes[0].data.sendWindow).toEqual({ start: '09:00', end: '20:00' }), { timeout: 4000 });

    const start = screen.getByLabelText('Window start');
    await user.clear(start);
    await user.type(start, '25:00');
    expect(await screen.findByText('Window start: Use a time of day as HH:MM (24-hour clock)')).toBeInTheDocument();
    expect(start).toHaveAttribute('aria-invalid', 'true');
    // A malformed window never reaches the saved canvas.
    await new Promise((r) => setTimeout(r, 1200));
    expect(lastPatch(calls)?.rfInstance?.nodes[0].data.sendWindow).toEqual({ start: '09:00', end: '20:00' });

    await user.clear(start);
    await user.type(start, '08:30');
    expect(screen.queryByText(/Use a time of day/)).not.toBeInTheDocument();
    expect(screen.getByText(/between 08:30 and 20:00 in their own time zone/)).toBeInTheDocument();
    await waitFor(() => expect(lastPatch(calls)?.rfInstance?.nodes[0].data.sendWindow).toEqual({ start: '08:30', end: '20:00' }), { timeout: 4000 });

    await user.click(toggle);
    await waitFor(() => expect(lastPatch(calls)?.rfInstance?.nodes[0].data.sendWindow).toBeNull(), { timeout: 4000 });
  });

  it('asks for the link of a media header, refusing what WhatsApp cannot fetch, and saves it', async () => {
    const trigger = { id: 'n1', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', segmentId: 's1' } };
    const send = { id: 'n2', type: 'SendWhatsappNode', position: { x: 0, y: 200 }, data: { label: 'Send', whatsappAccountId: 'a1' } };
    const rfInstance = { nodes: [trigger, send], edges: [{ id: 'e1', source: 'n1', target: 'n2' }], viewport: { x: 0, y: 0, zoom: 1 } };
    const { answers } = answersFor(campaign({ rfInstance }));
    const { calls } = await renderApp(`/campaigns/${campaignId}`, { answers });
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Template'), 't3');
    const link = screen.getByLabelText('Header image link');
    const missing = "Give a link to the image of the template's header";
    expect(within(canvas()).getByText(missing)).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Problems' })).getByText(missing)).toBeInTheDocument();

    await user.type(link, 'ftp://files.example.com/banner.jpg');
    expect(within(canvas()).getByText('The header media link must be an http(s) address or a file uploaded to this workspace')).toBeInTheDocument();
    await user.clear(link);
    await user.type(link, 'https://cdn.example.com/banner.jpg');
    expect(screen.queryByText(/header media link must be/)).not.toBeInTheDocument();
    expect(await screen.findByText('Ready to deploy')).toBeInTheDocument();
    await waitFor(() => expect(lastPatch(calls)?.rfInstance?.nodes[1].data).toMatchObject({ whatsappTemplateId: 't3', headerMediaLink: 'https://cdn.example.com/banner.jpg' }), { timeout: 4000 });
  });

  it('deploys after saving; a refused deploy lists every problem of the server', async () => {
    const { answers } = answersFor(campaign());
    let attempt = 0;
    answers[`POST /campaign/${campaignId}/deploy`] = () =>
      ++attempt === 1
        ? { status: 400, body: { statusCode: 400, message: ['Select audience segment!', 'Add at least one Send WhatsApp step'], error: 'Bad Request' } }
        : { status: 200, body: { success: true, status: 'inProgress', recipients: 10 } };
    const { calls } = await renderApp(`/campaigns/${campaignId}`, { answers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Deploy' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Deploy now' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('2 problems');
    expect(within(alert).getByText('Select audience segment!')).toBeInTheDocument();
    expect(within(alert).getByText('Add at least one Send WhatsApp step')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Deploy now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === `/campaign/${campaignId}/deploy`)).toHaveLength(2);
  });

  it('the deploy dialog shows the estimated cost and says the template became marketing', async () => {
    const { answers } = answersFor(campaign());
    answers[`GET /campaign/${campaignId}/estimate`] = {
      status: 200,
      body: {
        recipients: 3,
        steps: [{ stepId: 's1', templateId: null, templateName: 'order_update', category: 'MARKETING' }],
        byCountry: [
          { country: 'BR', market: 'Brazil', recipients: 2, currency: 'USD', cost: 0.125 },
          { country: 'US', market: 'Other', recipients: 1, currency: 'USD', cost: 0.0604 },
        ],
        costs: [{ currency: 'USD', amount: 0.1854 }],
        unpriced: 0,
        rateCard: { fileName: 'meta-rates.csv', uploadedAt: now },
        warnings: ['Template "order_update" became MARKETING on 2026-11-02 (it was UTILITY): it is priced and limited as marketing now'],
      },
    };
    await renderApp(`/campaigns/${campaignId}`, { answers });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Deploy' }));
    const estimate = await within(await screen.findByRole('dialog')).findByTestId('campaign-estimate');
    expect(within(estimate).getByRole('status')).toHaveTextContent('became MARKETING on 2026-11-02 (it was UTILITY)');
    expect(estimate).toHaveTextContent(/Estimated cost: \$0\.1854 · 3 recipients/);
    expect(within(estimate).getByRole('row', { name: /Brazil/ })).toHaveTextContent('$0.125');
  });

  it('schedules a one-time campaign for later', async () => {
    const { answers } = answersFor(campaign());
    answers[`POST /campaign/${campaignId}/deploy`] = { status: 200, body: { success: true, status: 'scheduled' } };
    const { calls } = await renderApp(`/campaigns/${campaignId}`, { answers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Deploy' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByLabelText('Later'));
    const at = new Date(Date.now() + 86_400_000);
    const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await user.type(within(dialog).getByLabelText('Start at'), local);
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(calls.some((c) => c.path === `/campaign/${campaignId}/deploy`)).toBe(true));
    const body = calls.find((c) => c.path === `/campaign/${campaignId}/deploy`)!.body as { startAt: string };
    expect(new Date(body.startAt).toISOString().slice(0, 16)).toBe(new Date(local).toISOString().slice(0, 16));
  });

  it('renames in place, also once deployed', async () => {
    const { answers } = answersFor(campaign({ status: 'completed', deployedAt: now }));
    answers[`GET /campaign/${campaignId}/results`] = { status: 200, body: { counts: counts(), timeline: [], billable: [] } };
    answers[`GET /campaign/${campaignId}/logs`] = page([]);
    const { calls } = await renderApp(`/campaigns/${campaignId}`, { answers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rename campaign' }));
    const input = screen.getByLabelText('Campaign name');
    await user.clear(input);
    await user.type(input, 'Cyber Monday{Enter}');
    await waitFor(() => expect(lastPatch(calls)).toEqual({ name: 'Cyber Monday' }));
    expect(await screen.findByText('Cyber Monday')).toBeInTheDocument();
  });

  it('locks the steps of a deployed campaign', async () => {
    const c = campaign({
      status: 'inProgress',
      deployedAt: now,
      rfInstance: {
        nodes: [{ id: 'n1', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Audience', segmentId: 's1' }, deletable: true }],
        edges: [],
      },
    });
    const { answers } = answersFor(c);
    answers[`GET /campaign/${campaignId}/results`] = { status: 200, body: { counts: counts(), timeline: [], billable: [] } };
    answers[`GET /campaign/${campaignId}/logs`] = page([]);
    await renderApp(`/campaigns/${campaignId}`, { answers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Steps' }));
    expect(await screen.findByText('Deployed: the steps are locked (the name can still change)')).toBeInTheDocument();
    expect(screen.getByLabelText('Audience segment')).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Send template/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
  });

  it('recurring: maps record keys, shows the trigger URL and curl, and the key once after deploy', async () => {
    const { answers } = answersFor(campaign({ type: 'recurring' }));
    answers[`POST /campaign/${campaignId}/deploy`] = { status: 200, body: { success: true, status: 'active', triggerKey: 'pk_live_secret_1234' } };
    await renderApp(`/campaigns/${campaignId}`, { answers });
    const user = userEvent.setup();
    expect(await screen.findByRole('button', { name: /API trigger/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Segment trigger/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /API trigger/ }));
    await user.click(screen.getByRole('button', { name: 'Add mapping' }));
    expect(within(canvas()).getByText('Mapping row 1: This field cannot be empty')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Record key of row 1'), 'order_id');
    await user.selectOptions(screen.getByLabelText('Attribute of row 1'), 'attr1');
    expect(screen.queryAllByText('Mapping row 1: This field cannot be empty')).toEqual([]);
    const access = screen.getByRole('region', { name: 'Trigger URL and key' });
    expect(access).toHaveTextContent(`/outbound/${campaignId}`);
    expect(access).toHaveTextContent('A key is created when the campaign is deployed.');
    expect(access).toHaveTextContent(`"order_id":"<order_id>"`);

    await user.click(screen.getByRole('button', { name: 'Deploy' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Deploy now' }));
    expect(await within(access).findByTestId('trigger-key')).toHaveTextContent('pk_live_secret_1234');
    expect(access).toHaveTextContent("Authorization: Bearer pk_live_secret_1234");
    expect(access).toHaveTextContent('it is shown only once');
    await user.click(within(access).getByRole('button', { name: 'I have stored it' }));
    expect(within(access).queryByText('pk_live_secret_1234')).not.toBeInTheDocument();
  });

  it('a failed save says so and keeps the change for a retry', async () => {
    const { answers } = answersFor(campaign());
    let fail = true;
    const ok = answers[`PATCH /campaign/${campaignId}`] as Exclude<Answer, { status: number }>;
    answers[`PATCH /campaign/${campaignId}`] = (req) =>
      fail ? { status: 409, body: { statusCode: 409, message: 'A deployed campaign’s steps cannot be edited', error: 'Conflict' } } : ok(req);
    const { calls } = await renderApp(`/campaigns/${campaignId}`, { answers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Delay/ }));
    expect(await screen.findByRole('alert', {}, { timeout: 4000 })).toHaveTextContent('Changes not saved: A deployed campaign’s steps cannot be edited');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('All changes saved'));
    expect(lastPatch(calls)!.rfInstance!.nodes.map((n) => n.type)).toEqual(['DelayNode']);
    await act(async () => undefined);
  });
});

function counts(over: Record<string, number> = {}) {
  return { recipients: 0, pending: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, unknown: 0, optedOut: 0, ...over };
}
