/**
 * The one database schema, for PGlite and PostgreSQL alike (SQL both PostgreSQL 15 and 18 accept).
 * Tenancy: every tenant table carries `workspace_id NOT NULL` (indexed, usually as the leading key column),
 * so every query is scoped by it and the tables can be distributed by it later.
 */
export * from './workspaces';
export * from './contacts';
export * from './whatsapp';
export * from './conversations';
export * from './bots';
export * from './campaigns';
export * from './campaign-counts';
export * from './imports';
export * from './events';
export * from './outbound';
export * from './pricing';

/** Tables that hold one workspace's data; each must have an indexed NOT NULL workspace_id (checked by a test). */
export const tenantTables = [
  'workspace_members',
  'invitees',
  'attributes',
  'contacts',
  'contact_identity_changes',
  'segments',
  'whatsapp_accounts',
  'whatsapp_templates',
  'bots',
  'campaigns',
  'campaign_logs',
  'campaign_runs',
  'campaign_recipients',
  'campaign_counts',
  'bot_sessions',
  'bot_versions',
  'bot_calls',
  'conversation_attributes',
  'conversations',
  'conversation_events',
  'messages',
  'conversation_reads',
  'import_histories',
  'import_rejections',
  'workspace_events',
  'outbound_sends',
  'send_pacers',
  'canned_replies',
  'message_mentions',
  'rate_cards',
] as const;
