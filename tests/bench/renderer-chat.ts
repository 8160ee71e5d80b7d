/**
 * Live chat in the browser at scale (PostgreSQL): 100,000 conversations and one conversation of 10,000
 * messages, seeded with set-based SQL. The production build of the renderer is served as web mode would be and
 * driven in Chromium. Measured in the page (performance.now): from navigation to an interactive conversation
 * list (the first row rendered and focusable) and to the conversation's last message shown in its viewport;
 * both as an in-app navigation (app already loaded, data not cached) and as a cold page load. Also checks that
 * the DOM holds only a window of rows, not the whole list.
 */
import type { Page } from '@playwright/test';
import pg from 'pg';
import { startBenchStack } from './lib-stack';
import { type Benchmark, type Metric, percentile, round } from './types';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GOAL_MS = 1000;

/** 100,000 contacts and conversations (every other one closed, one last message each), one conversation of 10,000. */
async function seed(databaseUrl: string, workspaceId: string, memberId: string): Promise<{ bigId: string; lastText: string }> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query(
      `insert into contacts (workspace_id, name, phone_number, attributes, created_at)
       select $1, 'Customer ' || g, '+1415' || lpad(g::text, 7, '0'), jsonb_build_object('plan', (array['gold','silver','free'])[1 + g % 3]),
              now() - make_interval(mins => g)
       from generate_series(1, $2::int) g`,
      [workspaceId, CONVERSATIONS],
    );
    await c.query(
      `insert into conversations (workspace_id, contact_id, is_active, assignee_member_id, last_message_at, last_inbound_at, last_activity_at, created_at)
       select workspace_id, id, (n % 2 = 0), case when n % 10 = 0 then $2::uuid end, at, at, at, at - interval '1 day'
       from (select workspace_id, id, created_at as at, row_number() over (order by created_at desc) as n from contacts where workspace_id = $1) s`,
      [workspaceId, memberId],
    );
    await c.query(
      `insert into messages (workspace_id, conversation_id, type, text, creator, status, created_at)
       select workspace_id, id, 'text', 'Hello, question number ' || substr(id::text, 1, 8), 'user', 'received', last_activity_at
       from conversations where workspace_id = $1`,
      [workspaceId],
    );
    // The big conversation: the newest closed one, with 10,000 messages over the last 10 days.
    const { rows } = await c.query<{ id: string }>(
      `update conversations set last_activity_at = now(), last_message_at = now(), last_inbound_at = now() - interval '1 hour'
       where id = (select id from conversations where workspace_id = $1 and not is_active order by last_activity_at desc limit 1)
       returning id`,
      [workspaceId],
    );
    const bigId = rows[0].id;
    const lastText = `Message ${MESSAGES} of the long conversation`;
    await c.query(
      `insert into messages (workspace_id, conversation_id, type, text, creator, member_id, status, created_at)
       select $1, $2, 'text',
              case when g = $3 then $4 else 'Message ' || g || ' of the long conversation' || repeat(' with more words', g % 5) end,
              (case when g % 2 = 0 then 'agent' else 'user' end), case when g % 2 = 0 then $5::uuid end,
              (case when g % 2 = 0 then 'read' else 'received' end), now() - make_interval(secs => ($3 - g) * 86.4)
       from generate_series(1, $3::int) g`,
      [workspaceId, bigId, MESSAGES, lastText, memberId],
    );
    await c.query('analyze');
    return { bigId, lastText };
  } finally {
    await c.end();
  }
}

type Check = { kind: 'firstRow' } | { kind: 'lastMessage'; text: string };
type Start = { kind: 'navLink'; label: string } | { kind: 'row'; id: string } | { kind: 'none' };

/**
 * Runs in the page (through page.evaluate, so the app's CSP, which forbids eval, does not get in the way):
 * optionally clicks, then checks every animation frame until the screen is there. Answers the page clock:
 * milliseconds since the click, or since the navigation started when there is no click.
 */
function clickAndWait(arg: { start: Start; check: Check }): Promise<number> {
  const { start, check } = arg;
  const isReady = (): boolean => {
    if (check.kind === 'firstRow') {
      const a = document.querySelector('[data-conversation-id]');
      return !!a && a.getBoundingClientRect().height > 0;
    }
    const s = document.querySelector('[data-testid="message-scroller"]');
    if (!s) return false;
    const p = [...s.querySelectorAll('article p')].find((el) => el.textContent === check.text);
    if (!p) return false;
    const r = p.getBoundingClientRect();
    const v = s.getBoundingClientRect();
    return r.height > 0 && r.top >= v.top - 1 && r.bottom <= v.bottom + 1;
  };
  const t0 = start.kind === 'none' ? 0 : performance.now();
  if (start.kind !== 'none') {
    const el =
      start.kind === 'navLink'
        ? [...document.querySelectorAll<HTMLElement>('nav[aria-label="Main"] a')].find((a) => a.textContent?.includes(start.label))
        : document.querySelector<HTMLElement>(`[data-conversation-id="${start.id}"]`);
    if (!el) return Promise.reject(new Error(`nothing to click for ${JSON.stringify(start)}`));
    el.click();
  }
  return new Promise((resolve, reject) => {
    const deadline = performance.now() + 30_000;
    const tick = () => {
      if (isReady()) resolve(performance.now() - t0);
      else if (performance.now() > deadline) reject(new Error(`timed out waiting for ${JSON.stringify(check)}`));
      else requestAnimationFrame(tick);
    };
    tick();
  });
}

const measure = (page: Page, start: Start, check: Check) => page.evaluate(clickAndWait, { start, check });

/** Milliseconds from the start of the page load to `check` holding. */
async function measureLoad(page: Page, url: string, check: Check): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  return page.evaluate(clickAndWait, { start: { kind: 'none' } as Start, check });
}

const firstRowReady: Check = { kind: 'firstRow' };
const lastMessageShown = (text: string): Check => ({ kind: 'lastMessage', text });

export const benchmark: Benchmark = {
  name: 'renderer-chat',
  needsDatabase: true,
  async run({ databaseUrl, log }) {
    if (!databaseUrl) throw new Error('renderer-chat needs a database');
    const stack = await startBenchStack({ databaseUrl, dataDirPrefix: 'parley-bench-ui-', memberName: 'Bench Agent' });
    try {
      const { member, webUrl, apiUrl } = stack;
      const t = Date.now();
      const { bigId, lastText } = await seed(databaseUrl, member.currentWorkspaceId, member.id);
      const seedSeconds = (Date.now() - t) / 1000;
      log(`seeded ${CONVERSATIONS} conversations and ${MESSAGES} messages in ${seedSeconds.toFixed(1)} s`);

      log(`built the renderer in ${(await stack.serveRenderer()).toFixed(1)} s`);
      const page = await stack.signedInPage();
      await page.evaluate(clickAndWait, { start: { kind: 'none' } as Start, check: firstRowReady });

      const listNav: number[] = [];
      const listCold: number[] = [];
      const convNav: number[] = [];
      const convCold: number[] = [];
      let rowsInDom = 0;
      let messagesInDom = 0;
      let rowsAfterScroll = 0;
      let loadedAfterScroll = 0;
      for (let i = 0; i < RUNS; i++) {
        // In-app: a fresh page on Settings (nothing of live chat cached), then the sidebar's Live chat link.
        await page.goto(`${webUrl}/settings/profile`);
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        listNav.push(await measure(page, { kind: 'navLink', label: 'Live chat' }, firstRowReady));
        // Then open the long conversation from the list.
        convNav.push(await measure(page, { kind: 'row', id: bigId }, lastMessageShown(lastText)));
        // Cold page loads (JavaScript, identity, data).
        listCold.push(await measureLoad(page, `${webUrl}/live-chat?tab=closed`, firstRowReady));
        convCold.push(await measureLoad(page, `${webUrl}/live-chat/${bigId}?tab=closed`, lastMessageShown(lastText)));
        if (i === 0) {
          await page.evaluate(clickAndWait, { start: { kind: 'none' } as Start, check: firstRowReady });
          rowsInDom = await page.evaluate(() => document.querySelectorAll('[data-conversation-id]').length);
          messagesInDom = await page.evaluate(() => document.querySelectorAll('[data-message-id]').length);
          // Scroll the list through several pages: the DOM must still hold only a window.
          for (let k = 0; k < 12; k++) {
            await page.evaluate(() => {
              const s = document.querySelector('[data-testid="conversation-scroller"]')!;
              s.scrollTop = s.scrollHeight;
            });
            await page.waitForTimeout(250);
          }
          rowsAfterScroll = await page.evaluate(() => document.querySelectorAll('[data-conversation-id]').length);
          loadedAfterScroll = await page.evaluate(() => {
            const nav = document.querySelector('nav[aria-label="Conversations"]') as HTMLElement;
            return Math.round(nav.getBoundingClientRect().height / 72);
          });
        }
      }
      log(`list ${listNav.map((n) => n.toFixed(0)).join(', ')} ms; conversation ${convNav.map((n) => n.toFixed(0)).join(', ')} ms`);
      if (process.env.BENCH_DEBUG) {
        // Where the time goes: each API call of one in-app navigation to the list and the conversation.
        const calls: string[] = [];
        page.on('requestfinished', (r) => {
          const tm = r.timing();
          if (r.url().startsWith(apiUrl)) calls.push(`${r.method()} ${r.url().slice(apiUrl.length, apiUrl.length + 70)} start=${tm.startTime.toFixed(0)} dur=${tm.responseEnd.toFixed(0)}`);
        });
        await page.goto(`${webUrl}/settings/profile`);
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        await page.waitForTimeout(500);
        calls.length = 0;
        const a = await measure(page, { kind: 'navLink', label: 'Live chat' }, firstRowReady);
        const b = await measure(page, { kind: 'row', id: bigId }, lastMessageShown(lastText));
        await page.waitForTimeout(500);
        log(`debug: list ${a.toFixed(0)} ms, conversation ${b.toFixed(0)} ms\n  ${calls.join('\n  ')}`);
      }

      if (rowsInDom === 0 || rowsInDom > 60) throw new Error(`the conversation list holds ${rowsInDom} rows in the DOM, not a window`);
      if (messagesInDom === 0 || messagesInDom > 80) throw new Error(`the conversation holds ${messagesInDom} message rows in the DOM, not a window`);
      if (rowsAfterScroll > 60 || loadedAfterScroll < 300) {
        throw new Error(`after scrolling: ${rowsAfterScroll} rows in the DOM for ${loadedAfterScroll} loaded`);
      }

      const med = (xs: number[]) => round(percentile(xs, 50), 0);
      const metric = (xs: number[], description: string, goal?: number): Metric => ({ value: med(xs), unit: 'ms', ...(goal ? { goal } : {}), description });
      return {
        metrics: {
          list_navigation_ms: metric(listNav, `median of ${RUNS}: sidebar link to the first conversation row rendered (100,000 conversations, nothing cached)`, GOAL_MS),
          conversation_navigation_ms: metric(convNav, `median of ${RUNS}: click on the 10,000-message conversation to its last message shown in view`, GOAL_MS),
          list_cold_load_ms: metric(listCold, `median of ${RUNS}: page load of /live-chat (JS, identity restore, data) to the first row`),
          conversation_cold_load_ms: metric(convCold, `median of ${RUNS}: page load of /live-chat/{id} to the last message shown`),
          list_navigation_p100_ms: { value: round(Math.max(...listNav), 0), unit: 'ms', description: 'slowest run of list_navigation_ms' },
          conversation_navigation_p100_ms: { value: round(Math.max(...convNav), 0), unit: 'ms', description: 'slowest run of conversation_navigation_ms' },
          list_rows_in_dom: { value: rowsInDom, unit: 'rows', goal: 60, description: `conversation rows in the DOM with ${CONVERSATIONS.toLocaleString('en')} conversations` },
          list_rows_in_dom_after_scroll: { value: rowsAfterScroll, unit: 'rows', goal: 60, description: `rows in the DOM after scrolling through ${loadedAfterScroll} loaded conversations` },
          message_rows_in_dom: { value: messagesInDom, unit: 'rows', goal: 80, description: `message rows in the DOM for a conversation of ${MESSAGES.toLocaleString('en')} messages` },
          seed_s: { value: round(seedSeconds, 1), unit: 's', description: 'set-based SQL seeding of the data above' },
        },
        notes: [
          'Production build of the renderer served statically; server on PostgreSQL; Chromium (--disable-gpu) on the same 2-core machine as the server.',
          'Timings are taken in the page with performance.now(), polled every animation frame: "interactive list" = first conversation row laid out; "last message shown" = its bubble inside the message viewport.',
          'The conversation detail carries the newest 500 messages; older ones page in through GET /conversation/{id}/messages?before= as the user scrolls up.',
        ],
      };
    } finally {
      await stack.stop();
    }
  },
};
