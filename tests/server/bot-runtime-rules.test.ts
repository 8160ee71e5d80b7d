/**
 * The bot runtime as a unit (the `botRuntime` part of the mutation score, milliseconds per mutant): the
 * walker (src/server/bots/walker.ts) walking a deployed canvas from node to node, and each node kind's executor
 * (executors.ts): what the customer is sent and in what order (with each send's idempotency key), which node the
 * session waits at and for what, the attributes collected, validation of answers, the no-answer, invalid and
 * failure edges, conditions, e-mails, handover, and the loop guard. The walker takes every effect through its
 * `BotEnv` seam, so a recording seam stands in for the outbound path (tests/support/bot-runtime-canvas.ts): no app,
 * database, sandbox or job queue. bots.test.ts holds the same rules end to end through the app.
 */
import { describe, expect, it } from 'vitest';
import type { BotPreviewAnswer } from '../../src/shared';
import { checkFormat, executors } from '../../src/server/bots/executors';
import type { AttributeInfo } from '../../src/server/bots/executor-contract';
import { idleMinutesOf, noAnswerMinutesOf, runTurn, startState, startsSession } from '../../src/server/bots/walker';
import { canvas, edge, msg, node, recorder, state } from '../support/bot-runtime-canvas';

const attrs: AttributeInfo[] = [
  { id: 'a-email', name: 'Email', format: 'text', type: 'contact' },
  { id: 'a-age', name: 'Age', format: 'number', type: 'contact' },
  { id: 'a-vip', name: 'VIP', format: 'boolean', type: 'conversation' },
  { id: 'a-choice', name: 'Choice', format: 'text', type: 'conversation' },
  { id: 'a-city', name: 'City', format: 'text', type: 'contact' },
];

const start = (data: Record<string, unknown> = {}) => node('start', 'StartNode', { label: 'Start', ...data });
const say = (id: string, ...texts: string[]) => node(id, 'SendMessageNode', { label: id, messageBlocks: texts.map((text, i) => ({ id: `${id}-b${i}`, type: 'text' as const, text })) });
const ask = (id: string, variableId: string, body: string, extra: Record<string, unknown> = {}) =>
  node(id, 'CollectInputNode', { label: id, body, variableId, ...extra });
const text = (t: string): BotPreviewAnswer => ({ type: 'text', text: t });
const none: BotPreviewAnswer = { type: 'noAnswer' };

/** Start -> greet -> ask e-mail -> thanks. */
const simple = () =>
  canvas(
    [start(), say('greet', 'Hello {{Email}}!', 'Second block'), ask('ask', 'a-email', 'Your e-mail?'), say('thanks', 'Thanks, {{Email}}')],
    [edge('start', 'greet'), edge('greet', 'ask'), edge('ask', 'thanks')],
  );

describe('a walk from Start', () => {
  it('sends each node on the way in order, keyed <step>:<block>, and waits at the first question', async () => {
    const rec = recorder({ attributes: attrs, known: { Email: 'old@example.com' } });
    const turn = await runTurn(simple(), rec.env, startState(simple()), null);
    expect(rec.sent).toEqual([
      { nodeId: 'greet', key: '2:0', message: msg('greet', 'text', { text: 'Hello old@example.com!' }) },
      { nodeId: 'greet', key: '2:1', message: msg('greet', 'text', { text: 'Second block' }) },
      { nodeId: 'ask', key: '3:1', message: msg('ask', 'text', { text: 'Your e-mail?' }) },
    ]);
    expect(turn).toEqual({ state: { currentNodeId: 'ask', step: 3, waitingFor: 'input', invalidAnswers: 0, variables: {} }, ended: null });
  });

  it('applies the answer, fills the collected value into what follows (over the known one), and completes at the last node', async () => {
    const rec = recorder({ attributes: attrs, known: { Email: 'old@example.com', City: 'Paris' } });
    const input = state({ currentNodeId: 'ask', step: 3, waitingFor: 'input', variables: { 'a-city': 'Lyon' } });
    const turn = await runTurn(simple(), rec.env, input, text('  new@example.com '));
    expect(rec.sent).toEqual([{ nodeId: 'thanks', key: '5:0', message: msg('thanks', 'text', { text: 'Thanks, new@example.com' }) }]);
    expect(turn.ended).toBe('completed');
    expect(turn.state).toEqual({ currentNodeId: 'thanks', step: 5, waitingFor: null, invalidAnswers: 0, variables: { 'a-city': 'Lyon', 'a-email': 'new@example.com' } });
    // The caller's state is not changed: the turn answers a new one.
    expect(input).toEqual(state({ currentNodeId: 'ask', step: 3, waitingFor: 'input', variables: { 'a-city': 'Lyon' } }));
  });

  it('fills known values by attribute name and collected values by attribute id; an unknown name is empty, a collected value of a deleted attribute is ignored', async () => {
    const rf = canvas([start(), say('m', '{{City}}|{{Email}}|{{Nope}}|{{ }}')], [edge('start', 'm')]);
    const rec = recorder({ attributes: attrs, known: { City: 'Paris', Email: 'k@example.com' } });
    await runTurn(rf, rec.env, state({ step: 0, variables: { 'a-email': 'c@example.com', gone: 'x' } }), null);
    expect(rec.texts()).toEqual(['Paris|c@example.com||{{ }}']);
  });

  it('fills an attribute named like an Object built-in ("constructor", "toString") without a value as empty text', async () => {
    const builtins: AttributeInfo[] = [...attrs, { id: 'a-ctor', name: 'constructor', format: 'text', type: 'contact' }];
    const rf = canvas([start(), say('m', 'Hi {{constructor}}|{{toString}}|{{__proto__}}|{{City}}')], [edge('start', 'm')]);
    const rec = recorder({ attributes: builtins, known: { City: 'Paris' } });
    await runTurn(rf, rec.env, state({ step: 0 }), null);
    expect(rec.texts()).toEqual(['Hi |||Paris']);
    const known = recorder({ attributes: builtins, known: { constructor: 'Ada' } });
    await runTurn(rf, known.env, state({ step: 0 }), null);
    expect(known.texts()).toEqual(['Hi Ada|||']);
  });

  it('skips blank message blocks but keeps the block index in the key', async () => {
    const rf = canvas([start(), say('m', 'one', '   ', '{{Nope}}', 'four')], [edge('start', 'm')]);
    const rec = recorder({ attributes: attrs });
    const turn = await runTurn(rf, rec.env, startState(rf), null);
    expect(rec.sent.map((s) => [s.key, s.message.text])).toEqual([['2:0', 'one'], ['2:3', 'four']]);
    expect(turn.ended).toBe('completed');
  });

  it('ends as completed when a node leads nowhere, and ignores extra-handle edges as the next step', async () => {
    const rf = canvas([start(), say('m', 'hi'), say('x', 'never')], [edge('start', 'm'), edge('m', 'x', 'noAnswer'), edge('m', 'x', 'failure'), edge('m', 'x', 'invalid')]);
    const rec = recorder();
    const turn = await runTurn(rf, rec.env, startState(rf), null);
    expect(rec.texts()).toEqual(['hi']);
    expect(turn).toEqual({ state: { currentNodeId: 'm', step: 2, waitingFor: null, invalidAnswers: 0, variables: {} }, ended: 'completed' });
  });

  it('follows an edge with an ordinary handle as the next step', async () => {
    const rf = canvas([start(), say('m', 'hi'), say('n', 'next')], [edge('start', 'm', 'out'), edge('m', 'n', 'source-1')]);
    const rec = recorder();
    expect((await runTurn(rf, rec.env, startState(rf), null)).ended).toBe('completed');
    expect(rec.texts()).toEqual(['hi', 'next']);
  });

  it('fails with nothing sent when the state points at a node the canvas does not have, or at none', async () => {
    for (const currentNodeId of ['missing', null]) {
      const rec = recorder();
      const turn = await runTurn(simple(), rec.env, state({ currentNodeId, step: 4, waitingFor: 'input' }), text('hi'));
      expect(turn).toEqual({ state: { currentNodeId: null, step: 4, waitingFor: null, invalidAnswers: 0, variables: {} }, ended: 'failed' });
      expect(rec.sent).toEqual([]);
    }
  });

  it('does nothing with an answer when the session is not waiting, or waits at a kind that takes no answer', async () => {
    const rec = recorder({ attributes: attrs });
    const notWaiting = state({ currentNodeId: 'ask', step: 3, waitingFor: null });
    expect(await runTurn(simple(), rec.env, notWaiting, text('a@b.c'))).toEqual({ state: notWaiting, ended: null });
    const odd = state({ currentNodeId: 'greet', step: 2, waitingFor: 'input' });
    expect(await runTurn(simple(), rec.env, odd, text('a@b.c'))).toEqual({ state: odd, ended: null });
    expect(rec.sent).toEqual([]);
  });

  it('does nothing without an answer while the session waits (a redelivered start)', async () => {
    const rec = recorder({ attributes: attrs });
    const waiting = state({ currentNodeId: 'ask', step: 3, waitingFor: 'input' });
    expect(await runTurn(simple(), rec.env, waiting, null)).toEqual({ state: waiting, ended: null });
    expect(rec.sent).toEqual([]);
  });

  it('runs the current node without an answer when the session is not waiting (resumed after a step), and always at step 0', async () => {
    const rec = recorder({ attributes: attrs });
    const turn = await runTurn(simple(), rec.env, state({ currentNodeId: 'thanks', step: 7, waitingFor: null, variables: { 'a-email': 'z@example.com' } }), null);
    expect(rec.sent).toEqual([{ nodeId: 'thanks', key: '8:0', message: msg('thanks', 'text', { text: 'Thanks, z@example.com' }) }]);
    expect(turn.ended).toBe('completed');
    const rec2 = recorder({ attributes: attrs });
    const first = await runTurn(simple(), rec2.env, state({ currentNodeId: 'ask', step: 0, waitingFor: 'input' }), null);
    expect(rec2.sent.map((s) => [s.key, s.message.text])).toEqual([['1:1', 'Your e-mail?']]);
    expect(first.state).toMatchObject({ currentNodeId: 'ask', step: 1, waitingFor: 'input' });
  });
});

describe('the loop guard', () => {
  const chain = (n: number) => {
    const nodes = [start(), ...Array.from({ length: n }, (_, i) => say(`m${i + 1}`, `message ${i + 1}`))];
    const edges = nodes.slice(1).map((m, i) => edge(nodes[i].id, m.id));
    return canvas(nodes, edges);
  };

  it('lets a walk run 50 nodes after the first without an answer', async () => {
    const rec = recorder();
    const turn = await runTurn(chain(50), rec.env, startState(chain(50)), null);
    expect(turn.ended).toBe('completed');
    expect(rec.sent).toHaveLength(50);
    expect(rec.notes).toEqual([]);
    expect(turn.state.currentNodeId).toBe('m50');
    expect(turn.state.step).toBe(51);
  });

  it('ends the session as failed at the 51st, with a note, before running it', async () => {
    const rec = recorder();
    const turn = await runTurn(chain(51), rec.env, startState(chain(51)), null);
    expect(turn).toEqual({ state: { currentNodeId: 'm51', step: 51, waitingFor: null, invalidAnswers: 0, variables: {} }, ended: 'failed' });
    expect(rec.sent).toHaveLength(50);
    expect(rec.texts().at(-1)).toBe('message 50');
    expect(rec.notes).toEqual([{ nodeId: 'm51', text: 'Loop guard: more than 50 steps without an answer; handed to a person' }]);
  });

  it('ends a canvas that loops back on itself', async () => {
    const rf = canvas([start(), say('a', 'A'), say('b', 'B')], [edge('start', 'a'), edge('a', 'b'), edge('b', 'a')]);
    const rec = recorder();
    const turn = await runTurn(rf, rec.env, startState(rf), null);
    expect(turn.ended).toBe('failed');
    expect(rec.sent).toHaveLength(50);
  });
});

describe('CollectInput', () => {
  const rf = (extra: Record<string, unknown> = {}, variableId = 'a-age') =>
    canvas(
      [start(), ask('ask', variableId, 'How old are you, {{City}}?', extra), say('done', 'Got {{Age}}'), say('late', 'Still there?'), say('bad', 'Let us talk later')],
      [edge('start', 'ask'), edge('ask', 'done'), edge('ask', 'late', 'noAnswer'), edge('ask', 'bad', 'invalid')],
    );
  const at = (over: Partial<ReturnType<typeof state>> = {}) => state({ currentNodeId: 'ask', step: 2, waitingFor: 'input', ...over });

  it('stores a number in the attribute format (a comma as the decimal point) and goes on', async () => {
    const rec = recorder({ attributes: attrs });
    const turn = await runTurn(rf(), rec.env, at(), text(' 3,5 '));
    expect(turn.state.variables).toEqual({ 'a-age': '3.5' });
    expect(rec.texts()).toEqual(['Got 3.5']);
    expect(turn.ended).toBe('completed');
  });

  it('answers an unfitting value with the default error and the question again, counting the tries', async () => {
    const rec = recorder({ attributes: attrs, known: { City: 'Ana' } });
    const turn = await runTurn(rf(), rec.env, at(), text('forty'));
    expect(rec.sent).toEqual([
      { nodeId: 'ask', key: '3:0', message: msg('ask', 'text', { text: 'Please check your answer and try again' }) },
      { nodeId: 'ask', key: '3:1', message: msg('ask', 'text', { text: 'How old are you, Ana?' }) },
    ]);
    expect(turn).toEqual({ state: { currentNodeId: 'ask', step: 3, waitingFor: 'input', invalidAnswers: 1, variables: {} }, ended: null });
  });

  it("sends the node's own error message, filled, and nothing but the question when it is blank", async () => {
    const rec = recorder({ attributes: attrs, known: { City: 'Ana' } });
    await runTurn(rf({ errorMessage: 'A number please, {{City}}' }), rec.env, at(), text('x'));
    expect(rec.texts()).toEqual(['A number please, Ana', 'How old are you, Ana?']);
    const rec2 = recorder({ attributes: attrs, known: { City: 'Ana' } });
    await runTurn(rf({ errorMessage: '  ' }), rec2.env, at(), text('x'));
    expect(rec2.sent.map((s) => [s.key, s.message.text])).toEqual([['3:1', 'How old are you, Ana?']]);
  });

  it('takes three unfitting answers, then follows the invalid edge with a note (and the next question starts counting afresh)', async () => {
    const rec = recorder({ attributes: attrs });
    const third = await runTurn(rf(), rec.env, at({ invalidAnswers: 2 }), text('x'));
    expect(third.state.invalidAnswers).toBe(3);
    expect(third.ended).toBeNull();
    expect(rec.notes).toEqual([]);
    const rec2 = recorder({ attributes: attrs });
    const fourth = await runTurn(rf(), rec2.env, at({ invalidAnswers: 3 }), text('x'));
    expect(rec2.texts()).toEqual(['Let us talk later']);
    expect(rec2.notes).toEqual([{ nodeId: 'ask', text: 'No usable answer after 3 tries' }]);
    expect(fourth).toEqual({ state: { currentNodeId: 'bad', step: 4, waitingFor: null, invalidAnswers: 0, variables: {} }, ended: 'completed' });
  });

  it('ends the session as failed after too many unfitting answers when there is no invalid edge', async () => {
    const noInvalid = canvas([start(), ask('ask', 'a-age', 'Age?'), say('done', 'ok')], [edge('start', 'ask'), edge('ask', 'done')]);
    const rec = recorder({ attributes: attrs });
    const turn = await runTurn(noInvalid, rec.env, at({ invalidAnswers: 3 }), text('x'));
    expect(turn).toEqual({ state: { currentNodeId: 'ask', step: 3, waitingFor: null, invalidAnswers: 4, variables: {} }, ended: 'failed' });
    expect(rec.sent).toEqual([]);
  });

  it('follows the noAnswer edge when the customer does not answer in time, or ends as expired without one', async () => {
    const rec = recorder({ attributes: attrs });
    const turn = await runTurn(rf(), rec.env, at(), none);
    expect(rec.texts()).toEqual(['Still there?']);
    expect(turn.state.currentNodeId).toBe('late');
    const bare = canvas([start(), ask('ask', 'a-age', 'Age?'), say('done', 'ok')], [edge('start', 'ask'), edge('ask', 'done')]);
    const rec2 = recorder({ attributes: attrs });
    expect(await runTurn(bare, rec2.env, at(), none)).toEqual({ state: { currentNodeId: 'ask', step: 3, waitingFor: null, invalidAnswers: 0, variables: {} }, ended: 'expired' });
    expect(rec2.sent).toEqual([]);
  });

  it('takes a tapped button as its label, refuses a flow answer or a tap of an unknown item, and keeps text as typed (trimmed) for a text attribute or an unknown one', async () => {
    const withButtons = canvas(
      [start(), ask('ask', 'a-choice', 'Pick'), node('btn', 'ReplyButtonNode', { label: 'Blue' }), say('done', 'ok')],
      [edge('start', 'ask'), edge('ask', 'done')],
    );
    const rec = recorder({ attributes: attrs });
    expect((await runTurn(withButtons, rec.env, at(), { type: 'button', id: 'btn' })).state.variables).toEqual({ 'a-choice': 'Blue' });
    const r2 = await runTurn(withButtons, recorder({ attributes: attrs }).env, at(), { type: 'listRow', id: 'nope' });
    expect(r2.state).toMatchObject({ waitingFor: 'input', invalidAnswers: 1, variables: {} });
    const r3 = await runTurn(withButtons, recorder({ attributes: attrs }).env, at(), { type: 'flow', response: { a: '1' } });
    expect(r3.state).toMatchObject({ waitingFor: 'input', invalidAnswers: 1, variables: {} });
    const r4 = await runTurn(rf({}, 'a-email'), recorder({ attributes: attrs }).env, at(), text('  Some Text  '));
    expect(r4.state.variables).toEqual({ 'a-email': 'Some Text' });
    const r5 = await runTurn(rf({}, 'unknown-attr'), recorder({ attributes: attrs }).env, at(), text(' 12abc '));
    expect(r5.state.variables).toEqual({ 'unknown-attr': '12abc' });
  });

  it('stores a yes/no answer as true/false for a boolean attribute', async () => {
    const rfb = rf({}, 'a-vip');
    const yes = await runTurn(rfb, recorder({ attributes: attrs }).env, at(), text('Oui'));
    expect(yes.state.variables).toEqual({ 'a-vip': 'true' });
    const no = await runTurn(rfb, recorder({ attributes: attrs }).env, at(), text('NEIN'));
    expect(no.state.variables).toEqual({ 'a-vip': 'false' });
    const maybe = await runTurn(rfb, recorder({ attributes: attrs }).env, at(), text('maybe'));
    expect(maybe.state).toMatchObject({ invalidAnswers: 1, variables: {} });
  });
});

describe('checkFormat', () => {
  it('numbers: optional sign, digits, one decimal part with a point or a comma; nothing else', () => {
    const ok: [string, string][] = [['42', '42'], [' -3 ', '-3'], ['+7', '+7'], ['3,5', '3.5'], ['2.25', '2.25'], ['0', '0'], ['10,05', '10.05']];
    for (const [raw, v] of ok) expect(checkFormat('number', raw), raw).toBe(v);
    for (const raw of ['x42', '42x', '1.', '.5', '1,2,3', '1.2.3', '--1', '+', '4 2', '', '   ', 'a1b', '1e5', '١٢']) expect(checkFormat('number', raw), raw).toBeNull();
  });
  it('booleans: yes and no words of several languages, any case', () => {
    for (const raw of ['yes', 'y', 'true', '1', 'oui', 'si', 'sí', 'ja', 'YES', ' True ']) expect(checkFormat('boolean', raw), raw).toBe('true');
    for (const raw of ['no', 'n', 'false', '0', 'non', 'nein', 'No ', 'FALSE']) expect(checkFormat('boolean', raw), raw).toBe('false');
    for (const raw of ['maybe', '2', 'yess', '', ' ']) expect(checkFormat('boolean', raw), raw).toBeNull();
  });
  it('text (or no format): the trimmed answer, never a blank one', () => {
    expect(checkFormat('text', '  hi there ')).toBe('hi there');
    expect(checkFormat(undefined, ' 12 ')).toBe('12');
    expect(checkFormat('text', '  ')).toBeNull();
    expect(checkFormat(undefined, '')).toBeNull();
  });
});

describe('List and Reply', () => {
  const listCanvas = (extra: Record<string, unknown> = {}) =>
    canvas(
      [
        start(),
        node('list', 'ListNode', { label: 'Menu', header: 'Hi {{City}}', body: 'Choose, {{City}}', buttonName: 'Open', footer: 'Foot {{City}}', errorMessage: 'Pick one, {{City}}', selectedAttributeId: 'a-choice', ...extra }),
        node('pizza', 'ListButtonNode', { label: ' Pizza ' }),
        node('salad', 'ListButtonNode', { label: 'Salad' }),
        say('p', 'Pizza for {{Choice}}'),
        say('s', 'Salad it is'),
        say('late', 'Bye'),
        say('bad', 'Human next'),
      ],
      [edge('start', 'list'), edge('list', 'pizza'), edge('list', 'salad'), edge('pizza', 'p'), edge('salad', 's'), edge('list', 'late', 'noAnswer'), edge('list', 'bad', 'invalid')],
    );
  const replyCanvas = (extra: Record<string, unknown> = {}) =>
    canvas(
      [
        start(),
        node('reply', 'ReplyNode', { label: 'Q', header: 'H {{City}}', body: 'Yes or no, {{City}}?', footer: 'F {{City}}', errorMessage: 'Tap a button', ...extra }),
        node('yes', 'ReplyButtonNode', { label: 'Yes' }),
        node('no', 'ReplyButtonNode', { label: 'No' }),
        say('y', 'Great'),
        say('n', 'Too bad'),
      ],
      [edge('start', 'reply'), edge('reply', 'yes'), edge('reply', 'no'), edge('yes', 'y'), edge('no', 'n')],
    );
  const known = { City: 'Oslo' };

  it('a List sends its rows, header, footer and button name, filled, and waits for a list answer', async () => {
    const rec = recorder({ attributes: attrs, known });
    const turn = await runTurn(listCanvas(), rec.env, startState(listCanvas()), null);
    expect(rec.sent).toEqual([
      {
        nodeId: 'list',
        key: '2:1',
        message: msg('list', 'list', { text: 'Choose, Oslo', header: 'Hi Oslo', footer: 'Foot Oslo', buttons: [{ id: 'pizza', title: ' Pizza ' }, { id: 'salad', title: 'Salad' }], actionLabel: 'Open' }),
      },
    ]);
    expect(turn.state).toMatchObject({ currentNodeId: 'list', waitingFor: 'list' });
  });

  it('a List without header or footer sends none', async () => {
    const rf = listCanvas({ header: undefined, footer: undefined });
    const rec = recorder({ attributes: attrs, known });
    await runTurn(rf, rec.env, startState(rf), null);
    expect(rec.sent[0].message).toMatchObject({ header: null, footer: null });
  });

  it('a tapped row or a typed label (any case, trimmed) picks the item: its label is stored and its path followed', async () => {
    const at = state({ currentNodeId: 'list', step: 2, waitingFor: 'list' });
    const rec = recorder({ attributes: attrs, known });
    const tapped = await runTurn(listCanvas(), rec.env, at, { type: 'listRow', id: 'salad' });
    expect(rec.texts()).toEqual(['Salad it is']);
    expect(tapped.state.variables).toEqual({ 'a-choice': 'Salad' });
    const rec2 = recorder({ attributes: attrs, known });
    const typed = await runTurn(listCanvas(), rec2.env, at, text('  PIZZA '));
    expect(rec2.texts()).toEqual(['Pizza for  Pizza ']);
    expect(typed.state.variables).toEqual({ 'a-choice': ' Pizza ' });
    expect(typed.ended).toBe('completed');
  });

  it('a List without selectedAttributeId stores nothing', async () => {
    const rf = listCanvas({ selectedAttributeId: undefined });
    const turn = await runTurn(rf, recorder({ attributes: attrs, known }).env, state({ currentNodeId: 'list', step: 2, waitingFor: 'list' }), { type: 'listRow', id: 'salad' });
    expect(turn.state.variables).toEqual({});
    expect(turn.ended).toBe('completed');
  });

  it('free text that is no label gets the error message and the list again; a blank error message sends only the list', async () => {
    const at = state({ currentNodeId: 'list', step: 2, waitingFor: 'list' });
    const rec = recorder({ attributes: attrs, known });
    const turn = await runTurn(listCanvas(), rec.env, at, text('burger'));
    expect(rec.sent.map((s) => [s.key, s.message.type, s.message.text])).toEqual([['3:0', 'text', 'Pick one, Oslo'], ['3:1', 'list', 'Choose, Oslo']]);
    expect(turn.state).toMatchObject({ currentNodeId: 'list', waitingFor: 'list', invalidAnswers: 1 });
    const rec2 = recorder({ attributes: attrs, known });
    await runTurn(listCanvas({ errorMessage: ' ' }), rec2.env, at, text('burger'));
    expect(rec2.sent.map((s) => s.message.type)).toEqual(['list']);
  });

  it('a List whose error message is missing (an unvalidated canvas) sends only the list again', async () => {
    const rf = listCanvas({ errorMessage: undefined });
    const rec = recorder({ attributes: attrs, known });
    const turn = await runTurn(rf, rec.env, state({ currentNodeId: 'list', step: 2, waitingFor: 'list' }), text('burger'));
    expect(rec.sent.map((s) => [s.key, s.message.type, s.message.text])).toEqual([['3:1', 'list', 'Choose, Oslo']]);
    expect(turn.state).toMatchObject({ waitingFor: 'list', invalidAnswers: 1 });
  });

  it('an item or button without a label (an unvalidated canvas) is sent with an empty title, and tapping it stores an empty value', async () => {
    const rf = canvas(
      [
        start(),
        node('list', 'ListNode', { label: 'Menu', body: 'Choose', buttonName: 'Open', errorMessage: 'Pick one', selectedAttributeId: 'a-choice' }),
        node('blank', 'ListButtonNode', {} as never),
        node('reply', 'ReplyNode', { label: 'Q', body: 'Sure?', errorMessage: 'Tap' }),
        node('blankBtn', 'ReplyButtonNode', {} as never),
      ],
      [edge('start', 'list'), edge('list', 'blank'), edge('blank', 'reply'), edge('reply', 'blankBtn')],
    );
    const rec = recorder({ attributes: attrs });
    await runTurn(rf, rec.env, startState(rf), null);
    expect(rec.sent.map((s) => s.message.buttons)).toEqual([[{ id: 'blank', title: '' }]]);
    const rec2 = recorder({ attributes: attrs, known: { Choice: 'before' } });
    const turn = await runTurn(rf, rec2.env, state({ currentNodeId: 'list', step: 2, waitingFor: 'list' }), { type: 'listRow', id: 'blank' });
    expect(turn.state).toMatchObject({ currentNodeId: 'reply', waitingFor: 'reply', variables: { 'a-choice': '' } });
    expect(rec2.sent.map((s) => s.message.buttons)).toEqual([[{ id: 'blankBtn', title: '' }]]);
  });

  it('a blank answer, a flow answer or an unknown tap picks nothing', async () => {
    const at = state({ currentNodeId: 'list', step: 2, waitingFor: 'list' });
    for (const a of [text('   '), { type: 'flow', response: { label: 'Salad' } } as BotPreviewAnswer, { type: 'listRow', id: 'p' } as BotPreviewAnswer, { type: 'button', id: 'nope' } as BotPreviewAnswer]) {
      const turn = await runTurn(listCanvas(), recorder({ attributes: attrs, known }).env, at, a);
      expect(turn.state, JSON.stringify(a)).toMatchObject({ currentNodeId: 'list', waitingFor: 'list', invalidAnswers: 1, variables: {} });
    }
  });

  it('a List follows its noAnswer edge, and its invalid edge after three unfitting answers', async () => {
    const at = state({ currentNodeId: 'list', step: 2, waitingFor: 'list' });
    const rec = recorder({ attributes: attrs, known });
    expect((await runTurn(listCanvas(), rec.env, at, none)).state.currentNodeId).toBe('late');
    expect(rec.texts()).toEqual(['Bye']);
    const rec2 = recorder({ attributes: attrs, known });
    const turn = await runTurn(listCanvas(), rec2.env, { ...at, invalidAnswers: 3 }, text('burger'));
    expect(rec2.texts()).toEqual(['Human next']);
    expect(turn.state.currentNodeId).toBe('bad');
  });

  it('a Reply sends its buttons with header and footer, filled, and waits for a reply', async () => {
    const rec = recorder({ attributes: attrs, known });
    const turn = await runTurn(replyCanvas(), rec.env, startState(replyCanvas()), null);
    expect(rec.sent).toEqual([
      { nodeId: 'reply', key: '2:1', message: msg('reply', 'reply', { text: 'Yes or no, Oslo?', header: 'H Oslo', footer: 'F Oslo', buttons: [{ id: 'yes', title: 'Yes' }, { id: 'no', title: 'No' }] }) },
    ]);
    expect(turn.state).toMatchObject({ currentNodeId: 'reply', waitingFor: 'reply' });
    const bare = replyCanvas({ header: undefined, footer: undefined });
    const rec2 = recorder({ attributes: attrs, known });
    await runTurn(bare, rec2.env, startState(bare), null);
    expect(rec2.sent[0].message).toMatchObject({ header: null, footer: null });
  });

  it('a tapped button follows its path; unfitting text asks again; no answer without an edge ends as expired; three tries then failed', async () => {
    const at = state({ currentNodeId: 'reply', step: 2, waitingFor: 'reply' });
    const rec = recorder({ attributes: attrs, known });
    const tapped = await runTurn(replyCanvas(), rec.env, at, { type: 'button', id: 'no' });
    expect(rec.texts()).toEqual(['Too bad']);
    expect(tapped.state.variables).toEqual({});
    const rec2 = recorder({ attributes: attrs, known });
    const again = await runTurn(replyCanvas(), rec2.env, at, text('dunno'));
    expect(rec2.sent.map((s) => [s.message.type, s.message.text])).toEqual([['text', 'Tap a button'], ['reply', 'Yes or no, Oslo?']]);
    expect(again.state).toMatchObject({ waitingFor: 'reply', invalidAnswers: 1 });
    expect((await runTurn(replyCanvas(), recorder().env, at, none)).ended).toBe('expired');
    expect((await runTurn(replyCanvas(), recorder().env, { ...at, invalidAnswers: 3 }, text('dunno'))).ended).toBe('failed');
  });
});

describe('WhatsappFlow', () => {
  const flowCanvas = (extra: Record<string, unknown> = {}) =>
    canvas(
      [
        start(),
        node('flow', 'WhatsappFlowNode', {
          label: 'Form',
          header: 'H {{City}}',
          body: 'Fill this, {{City}}',
          footer: 'F {{City}}',
          errorMessage: 'Use the form',
          flowCTA: 'Open form',
          flowId: 'flow-123',
          attributeMapping: [
            { id: 'm1', objectKey: 'email', attributeId: 'a-email' },
            { id: 'm2', objectKey: 'age', attributeId: 'a-age' },
            { id: 'm3', objectKey: 'vip', attributeId: 'a-vip' },
            { id: 'm4', objectKey: 'city', attributeId: 'a-city' },
            { id: 'm5', objectKey: 'notInTheAnswer', attributeId: 'a-choice' },
          ],
          ...extra,
        }),
        say('done', 'Thanks {{Email}}'),
        say('late', 'Too late'),
      ],
      [edge('start', 'flow'), edge('flow', 'done'), edge('flow', 'late', 'noAnswer')],
    );
  const at = state({ currentNodeId: 'flow', step: 2, waitingFor: 'flow' });

  it('sends the flow with its call to action and id, and waits for the flow answer', async () => {
    const rec = recorder({ attributes: attrs, known: { City: 'Rome' } });
    const turn = await runTurn(flowCanvas(), rec.env, startState(flowCanvas()), null);
    expect(rec.sent).toEqual([
      { nodeId: 'flow', key: '2:1', message: { ...msg('flow', 'flow', { text: 'Fill this, Rome', header: 'H Rome', footer: 'F Rome', actionLabel: 'Open form' }), flowId: 'flow-123' } },
    ]);
    expect(turn.state).toMatchObject({ currentNodeId: 'flow', waitingFor: 'flow' });
    const bare = flowCanvas({ header: undefined, footer: undefined });
    const rec2 = recorder({ attributes: attrs });
    await runTurn(bare, rec2.env, startState(bare), null);
    expect(rec2.sent[0].message).toMatchObject({ header: null, footer: null });
  });

  it('stores the mapped values of the answer as text (missing and null ones left alone) and goes on', async () => {
    const rec = recorder({ attributes: attrs });
    const response = { email: 'f@example.com', age: 30, vip: false, city: null, other: 'x' } as unknown as Record<string, string>;
    const turn = await runTurn(flowCanvas(), rec.env, { ...at, variables: { 'a-city': 'Kept' } }, { type: 'flow', response });
    expect(turn.state.variables).toEqual({ 'a-city': 'Kept', 'a-email': 'f@example.com', 'a-age': '30', 'a-vip': 'false' });
    expect(rec.texts()).toEqual(['Thanks f@example.com']);
  });

  it('stores nothing for a mapped key the answer lacks, even one named like an Object built-in ("toString")', async () => {
    const rf = flowCanvas({ attributeMapping: [{ id: 'm1', objectKey: 'toString', attributeId: 'a-email' }, { id: 'm2', objectKey: 'constructor', attributeId: 'a-city' }] });
    const rec = recorder({ attributes: attrs });
    const turn = await runTurn(rf, rec.env, at, { type: 'flow', response: { email: 'f@example.com' } });
    expect(turn.state.variables).toEqual({});
    expect(rec.texts()).toEqual(['Thanks ']);
  });

  it('answers anything but the form with the error and the form again; follows noAnswer', async () => {
    const rec = recorder({ attributes: attrs });
    const turn = await runTurn(flowCanvas(), rec.env, at, text('hello'));
    expect(rec.sent.map((s) => [s.key, s.message.type, s.message.text])).toEqual([['3:0', 'text', 'Use the form'], ['3:1', 'flow', 'Fill this, ']]);
    expect(turn.state).toMatchObject({ currentNodeId: 'flow', waitingFor: 'flow', invalidAnswers: 1 });
    const rec2 = recorder({ attributes: attrs });
    expect((await runTurn(flowCanvas(), rec2.env, at, none)).state.currentNodeId).toBe('late');
    expect(rec2.texts()).toEqual(['Too late']);
  });
});

describe('Condition', () => {
  const cond = (branches: unknown[], extraNodes: ReturnType<typeof say>[] = [], extraEdges: ReturnType<typeof edge>[] = []) =>
    canvas(
      [
        start(),
        node('if', 'ConditionNode', { label: 'If', branches } as never),
        node('b-vip', 'ConditionBranchNode', { label: 'VIP', type: 'Normal' }),
        node('b-paris', 'ConditionBranchNode', { label: 'Paris', type: 'Normal' }),
        node('b-def', 'ConditionBranchNode', { label: 'Else', type: 'Default' }),
        say('vip', 'VIP path'),
        say('paris', 'Paris path'),
        say('other', 'Default path'),
        ...extraNodes,
      ],
      [
        edge('start', 'if'),
        edge('if', 'b-vip', 'br-vip'),
        edge('if', 'b-paris'),
        edge('if', 'b-def'),
        edge('b-vip', 'vip'),
        edge('b-paris', 'paris'),
        edge('b-def', 'other'),
        ...extraEdges,
      ],
    );
  const vipBranch = { id: 'br-vip', label: 'VIP', type: 'Normal', conditions: [{ id: 'c1', attributeId: 'a-vip', operator: 'EQUALS', value: 'true' }] };
  const parisBranch = {
    id: 'b-paris',
    label: 'Paris',
    type: 'Normal',
    conditions: [
      { id: 'c2', attributeId: 'a-city', operator: 'EQUALS', value: ' {{Email}} ' },
      { id: 'c3', attributeId: 'a-age', operator: 'NOT_EQUALS', value: '' },
    ],
  };
  const walk = async (rf: ReturnType<typeof cond>, known: Record<string, string>, variables: Record<string, string> = {}) => {
    const rec = recorder({ attributes: attrs, known });
    const turn = await runTurn(rf, rec.env, state({ variables }), null);
    return { texts: rec.texts(), turn };
  };

  it('takes the first branch whose conditions all hold (a branch by its handle, or by its node id), else the Default', async () => {
    const rf = cond([vipBranch, parisBranch]);
    expect((await walk(rf, { VIP: 'TRUE ' })).texts).toEqual(['VIP path']);
    expect((await walk(rf, { VIP: 'false', City: ' paris', Email: 'PARIS', Age: '3' })).texts).toEqual(['Paris path']);
    // One condition of the branch fails: the Default.
    expect((await walk(rf, { VIP: 'false', City: 'paris', Email: 'paris' })).texts).toEqual(['Default path']);
    expect((await walk(rf, {})).texts).toEqual(['Default path']);
    expect((await walk(rf, {})).turn.ended).toBe('completed');
  });

  it("compares the session's collected value before the known one, and a missing value as empty text", async () => {
    const rf = cond([vipBranch]);
    expect((await walk(rf, { VIP: 'false' }, { 'a-vip': 'true' })).texts).toEqual(['VIP path']);
    expect((await walk(rf, { VIP: 'true' }, { 'a-vip': 'false' })).texts).toEqual(['Default path']);
    const emptyIs = { id: 'br-vip', label: 'x', type: 'Normal', conditions: [{ id: 'c', attributeId: 'a-vip', operator: 'EQUALS', value: '' }] };
    expect((await walk(cond([emptyIs]), {})).texts).toEqual(['VIP path']);
    const unknownAttr = { id: 'br-vip', label: 'x', type: 'Normal', conditions: [{ id: 'c', attributeId: 'deleted', operator: 'EQUALS', value: '' }] };
    expect((await walk(cond([unknownAttr]), { deleted: 'x' })).texts).toEqual(['VIP path']);
    const notEq = { id: 'br-vip', label: 'x', type: 'Normal', conditions: [{ id: 'c', attributeId: 'a-vip', operator: 'NOT_EQUALS', value: 'yes' }] };
    expect((await walk(cond([notEq]), { VIP: 'YES' })).texts).toEqual(['Default path']);
    expect((await walk(cond([notEq]), { VIP: 'no' })).texts).toEqual(['VIP path']);
  });

  it('compares an attribute named like an Object built-in ("constructor") without a value as empty text', async () => {
    const builtin = { id: 'br-vip', label: 'x', type: 'Normal', conditions: [{ id: 'c', attributeId: 'a-ctor', operator: 'EQUALS', value: '' }] };
    const rec = recorder({ attributes: [...attrs, { id: 'a-ctor', name: 'constructor', format: 'text', type: 'contact' }], known: {} });
    const turn = await runTurn(cond([builtin]), rec.env, state(), null);
    expect([rec.texts(), turn.ended]).toEqual([['VIP path'], 'completed']);
    const byId = { id: 'br-vip', label: 'x', type: 'Normal', conditions: [{ id: 'c', attributeId: 'toString', operator: 'EQUALS', value: '' }] };
    expect((await walk(cond([byId]), {})).texts).toEqual(['VIP path']);
  });

  it('fails when a holding branch has no branch node, or nothing holds and there is no Default', async () => {
    const lost = { ...vipBranch, id: 'br-missing' };
    const r1 = await walk(cond([lost]), { VIP: 'true' });
    expect(r1.turn).toEqual({ state: { currentNodeId: 'if', step: 2, waitingFor: null, invalidAnswers: 0, variables: {} }, ended: 'failed' });
    expect(r1.texts).toEqual([]);
    const noDefault = canvas(
      [start(), node('if', 'ConditionNode', { label: 'If', branches: [vipBranch] } as never), node('b-vip', 'ConditionBranchNode', { label: 'VIP', type: 'Normal' }), say('vip', 'VIP path')],
      [edge('start', 'if'), edge('if', 'b-vip', 'br-vip'), edge('b-vip', 'vip')],
    );
    const r2 = await walk(noDefault, { VIP: 'no' });
    expect(r2.turn.ended).toBe('failed');
    expect(r2.texts).toEqual([]);
    expect((await walk(noDefault, { VIP: 'yes' })).turn.ended).toBe('failed');
    expect((await walk(noDefault, { VIP: 'true' })).texts).toEqual(['VIP path']);
  });

  it('the Default is the Default-typed branch node, not the first other child', async () => {
    const rf = canvas(
      [
        start(),
        node('if', 'ConditionNode', { label: 'If', branches: [vipBranch] } as never),
        node('b-vip', 'ConditionBranchNode', { label: 'VIP', type: 'Normal' }),
        node('b-def', 'ConditionBranchNode', { label: 'Else', type: 'Default' }),
        say('vip', 'VIP path'),
        say('other', 'Default path'),
      ],
      [edge('start', 'if'), edge('if', 'b-vip', 'br-vip'), edge('if', 'b-def'), edge('b-vip', 'vip'), edge('b-def', 'other')],
    );
    expect((await walk(rf, { VIP: 'no' })).texts).toEqual(['Default path']);
  });
});

describe('Media, e-mail, handover and HTTP', () => {
  it('a Media node sends its kind, link, filled caption and file name', async () => {
    const rf = canvas(
      [
        start(),
        node('doc', 'MediaNode', { label: 'Doc', mediaLink: 'https://cdn.example.com/a.pdf', mediaType: 'document', caption: 'For {{City}}', filename: 'a.pdf' }),
        node('img', 'MediaNode', { label: 'Img', mediaLink: 'https://cdn.example.com/a.png', mediaType: 'image' }),
      ],
      [edge('start', 'doc'), edge('doc', 'img')],
    );
    const rec = recorder({ attributes: attrs, known: { City: 'Nice' } });
    const turn = await runTurn(rf, rec.env, startState(rf), null);
    expect(rec.sent).toEqual([
      { nodeId: 'doc', key: '2:0', message: msg('doc', 'document', { mediaUrl: 'https://cdn.example.com/a.pdf', text: 'For Nice', filename: 'a.pdf' }) },
      { nodeId: 'img', key: '3:0', message: msg('img', 'image', { mediaUrl: 'https://cdn.example.com/a.png' }) },
    ]);
    expect(turn.ended).toBe('completed');
  });

  it('a SendEmail node mails its recipients with the subject and body filled, and goes on', async () => {
    const rf = canvas(
      [
        start(),
        node('mail', 'SendEmailNode', { label: 'Mail', to: ['a@example.com'], cc: ['c@example.com'], bcc: ['b@example.com'], subject: 'Lead {{Email}}', body: 'From {{City}}' }),
        say('after', 'Mailed'),
      ],
      [edge('start', 'mail'), edge('mail', 'after')],
    );
    const rec = recorder({ attributes: attrs, known: { Email: 'l@example.com', City: 'Bern' } });
    const turn = await runTurn(rf, rec.env, startState(rf), null);
    expect(rec.emails).toEqual([{ nodeId: 'mail', key: '2:0', mail: { to: ['a@example.com'], cc: ['c@example.com'], bcc: ['b@example.com'], subject: 'Lead l@example.com', text: 'From Bern' } }]);
    expect(rec.texts()).toEqual(['Mailed']);
    expect(turn.ended).toBe('completed');
  });

  it('a HumanHandoff node hands the conversation to its member with the filled message and ends the session, whatever follows', async () => {
    const rf = canvas(
      [start(), say('hi', 'Hi'), node('hand', 'HumanHandoffNode', { label: 'Agent', assigneeMemberId: 'member-7', messageOnChatAssigned: 'An agent will help you, {{City}}' }), say('never', 'never')],
      [edge('start', 'hi'), edge('hi', 'hand'), edge('hand', 'never')],
    );
    const rec = recorder({ attributes: attrs, known: { City: 'Graz' } });
    const turn = await runTurn(rf, rec.env, startState(rf), null);
    expect(rec.handoffs).toEqual([{ nodeId: 'hand', memberId: 'member-7', message: 'An agent will help you, Graz', key: '3:0' }]);
    expect(rec.texts()).toEqual(['Hi']);
    expect(turn).toEqual({ state: { currentNodeId: 'hand', step: 3, waitingFor: null, invalidAnswers: 0, variables: {} }, ended: 'handoff' });
  });

  const httpCanvas = (withFailure: boolean) =>
    canvas(
      [
        start(),
        node('call', 'HTTPRequestNode', { label: 'Call', url: 'https://api.example.com/o/{{City}}', method: 'GET', headers: [], bodyType: 'raw', responseMappings: [{ id: 'r', path: '$.status', attributeId: 'a-choice' }] }),
        say('ok', 'Status {{Choice}}'),
        say('oops', 'The service is down'),
      ],
      [edge('start', 'call'), edge('call', 'ok'), ...(withFailure ? [edge('call', 'oops', 'failure')] : [])],
    );

  it('an HTTPRequest node that succeeds stores the mapped values and goes on', async () => {
    const rec = recorder({ attributes: attrs, known: { City: 'São Paulo' }, http: [{ ok: true, status: 200, json: { status: 'shipped' }, text: '' }] });
    const turn = await runTurn(httpCanvas(true), rec.env, startState(httpCanvas(true)), null);
    expect(rec.calls.map((c) => c.url)).toEqual(['https://api.example.com/o/S%C3%A3o%20Paulo']);
    expect(rec.texts()).toEqual(['Status shipped']);
    expect(turn.state.variables).toEqual({ 'a-choice': 'shipped' });
    expect(rec.notes).toEqual([]);
  });

  it('an HTTPRequest node that fails notes why and follows its failure edge, or its normal edge without one', async () => {
    const rec = recorder({ attributes: attrs, http: [{ ok: false, reason: 'The server answered 503', status: 503 }] });
    const turn = await runTurn(httpCanvas(true), rec.env, startState(httpCanvas(true)), null);
    expect(rec.notes).toEqual([{ nodeId: 'call', text: 'HTTP request failed: The server answered 503' }]);
    expect(rec.texts()).toEqual(['The service is down']);
    expect(turn.state.currentNodeId).toBe('oops');
    const rec2 = recorder({ attributes: attrs, http: [{ ok: false, reason: 'timeout' }] });
    const turn2 = await runTurn(httpCanvas(false), rec2.env, startState(httpCanvas(false)), null);
    expect(rec2.texts()).toEqual(['Status ']);
    expect(turn2.state.variables).toEqual({});
  });
});

describe('the loop guard and HTTP calls', () => {
  const call = (id: string) => node(id, 'HTTPRequestNode', { label: id, url: `https://api.example.com/${id}`, method: 'GET', headers: [], bodyType: 'raw' });

  it('stops a node that calls itself after 10 calls without an answer, as failed, with a note', async () => {
    const rf = canvas([start(), call('poll')], [edge('start', 'poll'), edge('poll', 'poll'), edge('poll', 'poll', 'failure')]);
    const rec = recorder({ http: Array.from({ length: 20 }, () => ({ ok: true as const, status: 200, json: null, text: '' })) });
    const turn = await runTurn(rf, rec.env, startState(rf), null);
    expect(turn.ended).toBe('failed');
    expect(rec.calls).toHaveLength(10);
    expect(rec.notes).toEqual([{ nodeId: 'poll', text: 'Loop guard: more than 10 HTTP calls without an answer; handed to a person' }]);
  });

  it('stops a loop through two HTTP nodes and a message the same way', async () => {
    const rf = canvas([start(), call('a'), say('m', 'again'), call('b')], [edge('start', 'a'), edge('a', 'm'), edge('m', 'b'), edge('b', 'a')]);
    const rec = recorder();
    const turn = await runTurn(rf, rec.env, startState(rf), null);
    expect(turn.ended).toBe('failed');
    expect(rec.calls.map((c) => c.url)).toHaveLength(10);
    expect(rec.texts()).toHaveLength(5);
  });
});

describe('a walk that pauses at its HTTP call (the live seam answers only recorded calls)', () => {
  const call = (id: string) => node(id, 'HTTPRequestNode', { label: id, url: `https://api.example.com/${id}`, method: 'GET', headers: [], bodyType: 'raw' });
  /** Like the live runtime: a call without a recorded outcome pauses the walk; the caller records it and resumes. */
  function pausingEnv() {
    const rec = recorder();
    const outcomes = new Map<string, { ok: true; status: number; json: unknown; text: string }>();
    const asked: string[] = [];
    rec.env.http = async (_call, at) => {
      asked.push(at.key);
      return outcomes.get(at.key) ?? null;
    };
    return { rec, outcomes, asked };
  }

  it('pauses at the node, then resumes at the same step (same key) with the recorded outcome and goes on', async () => {
    const rf = canvas([start(), say('a', 'before'), call('c'), say('b', 'after')], [edge('start', 'a'), edge('a', 'c'), edge('c', 'b')]);
    const { rec, outcomes, asked } = pausingEnv();
    const paused = await runTurn(rf, rec.env, startState(rf), null);
    expect(paused).toMatchObject({ ended: null, state: { currentNodeId: 'c', step: 3, waitingFor: 'call' }, guard: { walked: 2, httpCalls: 1 } });
    expect(rec.texts()).toEqual(['before']);
    // An answer that arrives meanwhile is not taken: the caller keeps it for after the call.
    expect(await runTurn(rf, rec.env, paused.state, { type: 'text', text: 'hi' }, paused.guard)).toEqual({ state: paused.state, ended: null });
    outcomes.set('3:0', { ok: true, status: 200, json: null, text: '' });
    const resumed = await runTurn(rf, rec.env, paused.state, null, paused.guard);
    expect(resumed.ended).toBe('completed');
    expect(asked).toEqual(['3:0', '3:0']);
    expect(rec.texts()).toEqual(['before', 'after']);
  });

  it('carries the loop guard over the pauses: a node calling itself still stops after 10 calls', async () => {
    const rf = canvas([start(), call('poll')], [edge('start', 'poll'), edge('poll', 'poll'), edge('poll', 'poll', 'failure')]);
    const { rec, outcomes } = pausingEnv();
    let turn = await runTurn(rf, rec.env, startState(rf), null);
    let pauses = 0;
    while (turn.state.waitingFor === 'call' && pauses < 50) {
      pauses += 1;
      outcomes.set(`${turn.state.step}:0`, { ok: true, status: 200, json: null, text: '' });
      turn = await runTurn(rf, rec.env, turn.state, null, turn.guard);
    }
    expect(pauses).toBe(10);
    expect(turn.ended).toBe('failed');
    expect(rec.notes).toEqual([{ nodeId: 'poll', text: 'Loop guard: more than 10 HTTP calls without an answer; handed to a person' }]);
  });
});

describe('pass-through kinds', () => {
  it('Start, items, buttons and branch nodes only lead on to their next node', () => {
    const rf = canvas([start(), say('m', 'x')], [edge('start', 'm')]);
    const rec = recorder();
    const g = { next: (id: string) => (id === 'n' ? 'after' : null) };
    const c = { g, env: rec.env, state: state(), fill: (t?: string) => t ?? '', key: (b: number) => `0:${b}`, set: () => undefined } as never;
    for (const kind of ['StartNode', 'ListButtonNode', 'ReplyButtonNode', 'ConditionBranchNode'] as const) {
      expect(executors[kind].enter({ id: 'n', type: kind, data: { label: 'x' } } as never, c)).toEqual({ next: 'after' });
    }
    expect(rf.nodes).toHaveLength(2);
    expect(rec.sent).toEqual([]);
  });
});

describe('start conditions, idle expiry and no-answer timeouts', () => {
  const withStart = (data: Record<string, unknown>) => canvas([start(data), say('m', 'x')], [edge('start', 'm')]);

  it('startState: at Start, nothing run; no Start node, no node', () => {
    expect(startState(withStart({}))).toEqual({ currentNodeId: 'start', step: 0, waitingFor: null, invalidAnswers: 0, variables: {} });
    expect(startState(canvas([say('m', 'x')], []))).toEqual({ currentNodeId: null, step: 0, waitingFor: null, invalidAnswers: 0, variables: {} });
  });

  it('any message starts a session when the Start node sets no condition or anyMessage (or there is no Start node)', () => {
    expect(startsSession(withStart({}), 'hello')).toBe(true);
    expect(startsSession(withStart({ startCondition: { type: 'anyMessage' } }), null)).toBe(true);
    expect(startsSession(canvas([say('m', 'x')], []), 'x')).toBe(true);
  });

  it('keywords: an exact match of the whole message or one contained in it, any case, trimmed', () => {
    const exact = withStart({ startCondition: { type: 'keywords', keywords: [' Order ', 'help'], match: 'exact' } });
    expect(startsSession(exact, '  ORDER ')).toBe(true);
    expect(startsSession(exact, 'Help')).toBe(true);
    expect(startsSession(exact, 'my order')).toBe(false);
    expect(startsSession(exact, null)).toBe(false);
    const contains = withStart({ startCondition: { type: 'keywords', keywords: ['Order ', 'help'], match: 'contains' } });
    expect(startsSession(contains, 'Where is my ORDER?')).toBe(true);
    expect(startsSession(contains, 'please HELP')).toBe(true);
    expect(startsSession(contains, 'hello')).toBe(false);
    expect(startsSession(contains, null)).toBe(false);
  });

  it('finds the Start node wherever it is in the canvas', () => {
    const later = (data: Record<string, unknown>) => canvas([say('m', 'x'), start(data)], [edge('start', 'm')]);
    expect(startState(later({}))).toMatchObject({ currentNodeId: 'start' });
    expect(idleMinutesOf(later({ idleExpiryMinutes: 15 }))).toBe(15);
    expect(startsSession(later({ startCondition: { type: 'keywords', keywords: ['order'], match: 'exact' } }), 'hello')).toBe(false);
    expect(startsSession(later({ startCondition: { type: 'keywords', keywords: ['order'], match: 'exact' } }), 'order')).toBe(true);
  });

  it('a message without text (an image, a location) matches no keyword, however short', () => {
    for (const match of ['exact', 'contains']) {
      const rf = withStart({ startCondition: { type: 'keywords', keywords: ['e', 'a', 's', '!'], match } });
      expect(startsSession(rf, null), match).toBe(false);
    }
  });

  it('idle expiry: the Start node\'s minutes, else 60', () => {
    expect(idleMinutesOf(withStart({ idleExpiryMinutes: 15 }))).toBe(15);
    expect(idleMinutesOf(withStart({}))).toBe(60);
    expect(idleMinutesOf(canvas([say('m', 'x')], []))).toBe(60);
  });

  it('no-answer minutes: only for a waiting node with minutes and a noAnswer edge', () => {
    const rf = (minutes: number | undefined, edgeToo: boolean) =>
      canvas(
        [start(), ask('ask', 'a-age', 'Age?', minutes ? { noAnswerTimeoutMinutes: minutes } : {}), say('late', 'late'), say('done', 'done')],
        [edge('start', 'ask'), edge('ask', 'done'), ...(edgeToo ? [edge('ask', 'late', 'noAnswer')] : [])],
      );
    const waiting = state({ currentNodeId: 'ask', step: 2, waitingFor: 'input' });
    expect(noAnswerMinutesOf(rf(5, true), waiting)).toBe(5);
    expect(noAnswerMinutesOf(rf(5, true), { ...waiting, waitingFor: null })).toBeNull();
    expect(noAnswerMinutesOf(rf(5, false), waiting)).toBeNull();
    expect(noAnswerMinutesOf(rf(undefined, true), waiting)).toBeNull();
    expect(noAnswerMinutesOf(rf(5, true), { ...waiting, currentNodeId: 'gone' })).toBeNull();
    expect(noAnswerMinutesOf(rf(5, true), { ...waiting, currentNodeId: 'done' })).toBeNull();
  });
});
