/**
 * Demo data for the live-chat and audience screens (screenshots, e2e): contacts with attributes, a WhatsApp
 * account, approved templates, and conversations holding every message type, delivery state and event.
 * Written straight into the database, as the channel would have stored them.
 */
import * as t from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/client';

type Db = Database['db'];

const minutes = (n: number) => n * 60_000;

export interface SeededChat {
  accountId: string;
  /** The conversation with every message type (open, inside the 24-hour window). */
  richConversationId: string;
  /** A conversation whose customer last wrote two days ago (window closed). */
  staleConversationId: string;
  contactIds: string[];
}

export async function seedLiveChat(db: Db, opts: { workspaceId: string; memberId: string; botId?: string; now?: number }): Promise<SeededChat> {
  const w = opts.workspaceId;
  const now = opts.now ?? Date.now();
  const at = (msAgo: number) => new Date(now - msAgo);

  await db
    .insert(t.attributes)
    .values([
      { workspaceId: w, name: 'plan', format: 'text', type: 'contact', memberId: opts.memberId, description: 'Subscription plan' },
      { workspaceId: w, name: 'orders', format: 'number', type: 'contact', memberId: opts.memberId, description: 'Orders placed' },
      { workspaceId: w, name: 'vip', format: 'boolean', type: 'contact', memberId: opts.memberId, description: 'VIP customer' },
    ])
    .onConflictDoNothing();

  const [account] = await db
    .insert(t.whatsappAccounts)
    .values({
      workspaceId: w,
      phoneNumber: '+14155550100',
      wabaAccountId: `waba-${Math.random().toString(36).slice(2)}`,
      appId: 'app-demo',
      phoneNumberId: `pn-${Math.random().toString(36).slice(2)}`,
      tokenCiphertext: 'not-a-real-token',
      tokenLast4: 'demo',
      memberId: opts.memberId,
    })
    .returning();

  await db.insert(t.whatsappTemplates).values([
    {
      workspaceId: w,
      whatsappAccountId: account.id,
      name: 'order_update',
      status: 'APPROVED',
      language: 'en_US',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#1042'] } },
        { type: 'BODY', text: 'Hi {{1}}, your order is {{2}}. Reply to this message if you need anything.', example: { body_text: [['Ada', 'on its way']] } },
        { type: 'FOOTER', text: 'Harbour Foods' },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Track order' }] },
      ],
      memberId: opts.memberId,
    },
    {
      workspaceId: w,
      whatsappAccountId: account.id,
      name: 'follow_up',
      status: 'APPROVED',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Hello {{1}}! Can we help you with anything else today?' }],
      memberId: opts.memberId,
    },
  ]);

  const people: [string, string, string | null, Record<string, string | number | boolean>][] = [
    ['Grace Hopper', '+14155550123', 'grace@example.com', { plan: 'gold', orders: 12, vip: true }],
    ['Alan Turing', '+447700900123', 'alan@example.co.uk', { plan: 'silver', orders: 3, vip: false }],
    ['Ada Lovelace', '+447700900456', null, { plan: 'gold', orders: 7 }],
    ['Linus Pauling', '+14155550177', 'linus@example.com', { plan: 'free' }],
    ['Katherine Johnson', '+14155550190', null, { orders: 1 }],
    ['Tim Berners-Lee', '+447700900789', 'tim@example.org', { plan: 'silver', vip: true }],
    ['Margaret Hamilton', '+14155550142', null, {}],
    ['Edsger Dijkstra', '+31612345678', 'edsger@example.nl', { orders: 21, vip: true }],
  ];
  const contacts = await db
    .insert(t.contacts)
    .values(people.map(([name, phoneNumber, email, attributes]) => ({ workspaceId: w, name, phoneNumber, email, attributes, country: phoneNumber.startsWith('+44') ? 'GB' : phoneNumber.startsWith('+31') ? 'NL' : 'US' })))
    .returning();

  const conv = async (contactIdx: number, v: Partial<typeof t.conversations.$inferInsert>) => {
    const [c] = await db
      .insert(t.conversations)
      .values({ workspaceId: w, contactId: contacts[contactIdx].id, whatsappAccountId: account.id, ...v })
      .returning();
    return c;
  };
  type M = Omit<typeof t.messages.$inferInsert, 'workspaceId' | 'conversationId'>;
  const addMessages = async (conversationId: string, ms: M[]) => {
    await db.insert(t.messages).values(ms.map((m) => ({ ...m, workspaceId: w, conversationId })));
  };
  const touch = async (conversationId: string, last: Date, lastInbound: Date | null) => {
    const { eq } = await import('drizzle-orm');
    await db.update(t.conversations).set({ lastMessageAt: last, lastActivityAt: last, lastInboundAt: lastInbound }).where(eq(t.conversations.id, conversationId));
  };

  // 1. Every message type, ticks and events, inside the window.
  const rich = await conv(0, { isActive: true, assigneeMemberId: opts.memberId, createdAt: at(minutes(60 * 26)) });
  const agent = { creator: 'agent' as const, memberId: opts.memberId };
  await addMessages(rich.id, [
    { type: 'text', text: 'Hi! I ordered a hamper last week, any news?', creator: 'user', status: 'received', createdAt: at(minutes(60 * 25)) },
    { type: 'text', text: 'Hello Grace, let me check that for you.', ...agent, status: 'read', createdAt: at(minutes(60 * 25 - 2)) },
    { type: 'reply', header: { type: 'text', text: 'Delivery options' }, text: 'How would you like to receive it?', footer: 'Tap a button', action: { buttons: [{ type: 'reply', reply: { id: 'home', title: 'Home delivery' } }, { type: 'reply', reply: { id: 'pickup', title: 'Pick up in store' } }] }, creator: 'bot', status: 'read', createdAt: at(minutes(60 * 25 - 3)) },
    { type: 'text', text: 'Home delivery', creator: 'user', status: 'received', createdAt: at(minutes(60 * 25 - 4)) },
    { type: 'list', header: { type: 'text', text: 'Delivery slot' }, text: 'Pick a delivery slot for tomorrow.', footer: 'Times are local', action: { button: 'Choose a slot', sections: [{ title: 'Morning', rows: [{ id: 'm1', title: '08:00 – 10:00', description: 'Early bird' }, { id: 'm2', title: '10:00 – 12:00' }] }, { title: 'Afternoon', rows: [{ id: 'a1', title: '14:00 – 16:00' }] }] }, creator: 'bot', status: 'delivered', createdAt: at(minutes(60 * 25 - 5)) },
    { type: 'image', mediaUrl: 'data:image/svg+xml;utf8,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#cde8d6"/><text x="160" y="108" font-family="sans-serif" font-size="20" text-anchor="middle" fill="#137a3c">Hamper photo</text></svg>'), text: 'This is what arrived', creator: 'user', status: 'received', createdAt: at(minutes(60 * 3)) },
    { type: 'document', mediaUrl: 'https://example.com/files/invoice-1042.pdf', header: { filename: 'invoice-1042.pdf' }, text: 'Your invoice', ...agent, status: 'delivered', createdAt: at(minutes(60 * 3 - 4)) },
    { type: 'video', mediaUrl: null, text: 'How to open the hamper', ...agent, status: 'sent', createdAt: at(minutes(60 * 3 - 5)) },
    { type: 'template', text: null, templateComponents: { name: 'order_update', language: 'en_US', components: [{ type: 'HEADER', format: 'TEXT', text: 'Order #1042' }, { type: 'BODY', text: 'Hi Grace, your order is on its way. Reply to this message if you need anything.' }, { type: 'FOOTER', text: 'Harbour Foods' }, { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Track order' }] }] }, ...agent, status: 'read', createdAt: at(minutes(60 * 2)) },
    { type: 'flow', header: { type: 'text', text: 'Rate your delivery' }, text: 'Tell us how we did, it takes 20 seconds.', footer: 'Harbour Foods', action: { name: 'flow', parameters: { flow_cta: 'Open survey', flow_id: '123' } }, creator: 'bot', status: 'delivered', createdAt: at(minutes(90)) },
    { type: 'text', text: 'Thanks! One item was missing though 😕', creator: 'user', status: 'received', createdAt: at(minutes(30)) },
    { type: 'text', text: 'Sorry about that, we are sending it today.', ...agent, status: 'failed', failureReason: 'The customer’s phone number is not on WhatsApp', createdAt: at(minutes(20)) },
    { type: 'text', text: 'Sorry about that — we will send the missing item today, free of charge.', ...agent, status: 'pending', createdAt: at(minutes(1)) },
  ]);
  await db.insert(t.conversationEvents).values([
    { workspaceId: w, conversationId: rich.id, createdAt: at(minutes(60 * 25 - 1)), data: { type: 'CONVERSATION_ASSIGNED', assignedByType: 'system', assignedById: null, assigneeType: 'member', assigneeBotId: null, assigneeMemberId: opts.memberId } },
  ]);
  await touch(rich.id, at(minutes(1)), at(minutes(30)));

  // 2. Window closed: the customer last wrote two days ago.
  const stale = await conv(1, { isActive: true, createdAt: at(minutes(60 * 50)) });
  await addMessages(stale.id, [
    { type: 'text', text: 'Do you deliver to Manchester?', creator: 'user', status: 'received', createdAt: at(minutes(60 * 49)) },
    { type: 'text', text: 'We do, next-day delivery.', ...agent, status: 'read', createdAt: at(minutes(60 * 48)) },
  ]);
  await touch(stale.id, at(minutes(60 * 48)), at(minutes(60 * 49)));

  // 3. More of the inbox: open, bot-assigned, closed (with a close event).
  const texts = ['Is the shop open on Sunday?', 'Can I change my address?', 'Thank you, all good!', 'Where is my refund?', 'Do you have gift cards?', 'Perfect, see you then.'];
  for (let i = 2; i < contacts.length; i++) {
    const closed = i % 3 === 0;
    const c = await conv(i, {
      isActive: !closed,
      assigneeBotId: i === 4 && opts.botId ? opts.botId : null,
      assigneeMemberId: i === 5 ? opts.memberId : null,
      createdAt: at(minutes(60 * (i + 5))),
    })
    const last = at(minutes(7 * i * i));
    await addMessages(c.id, [{ type: 'text', text: texts[i - 2], creator: 'user', status: 'received', createdAt: last }]);
    if (closed) {
      await db.insert(t.conversationEvents).values({ workspaceId: w, conversationId: c.id, createdAt: new Date(last.getTime() + 60_000), data: { type: 'CONVERSATION_CLOSED', closedBy: 'user', userId: opts.memberId } });
    }
    await touch(c.id, last, last);
  }

  return { accountId: account.id, richConversationId: rich.id, staleConversationId: stale.id, contactIds: contacts.map((c) => c.id) };
}
