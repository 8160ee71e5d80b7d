/**
 * The SQL the WhatsApp channel uses, one module per table (whatsapp-accounts, contacts, conversation-rows,
 * messages, whatsapp-templates), re-exported here so the channel's code reads `ch.account(...)`,
 * `ch.insertMessage(...)` as before.
 */
export * from './whatsapp-accounts';
export * from './contacts';
export * from './conversation-rows';
export * from './messages';
export * from './whatsapp-templates';
export * from './inbound-batch-rows';
