/** Tenant resources and their wire shapes. */
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import type { ResourceKind } from '../../shared/api/routes';
import type {
  Attribute,
  Bot,
  BotDraftRfInstance,
  Campaign,
  CampaignDraftRfInstance,
  Contact,
  Invitee,
  Segment,
  SegmentFilter,
  WhatsappAccount,
  WhatsappTemplate,
  TemplateComponent,
} from '../../shared';
import { iso, isoOrNull, isUuid } from './pagination';
import { tenantCrud } from './tenant-crud';

export const bots = tenantCrud(t.bots);
export const campaigns = tenantCrud(t.campaigns);
export const attributes = tenantCrud(t.attributes);
export const contacts = tenantCrud(t.contacts);
export const segments = tenantCrud(t.segments);
export const invitees = tenantCrud(t.invitees);
export const whatsappAccounts = tenantCrud(t.whatsappAccounts);
export const whatsappTemplates = tenantCrud(t.whatsappTemplates);
export const conversations = tenantCrud(t.conversations);
export const importHistories = tenantCrud(t.importHistories);

const resourceTables = {
  bot: t.bots,
  campaign: t.campaigns,
  attribute: t.attributes,
  contact: t.contacts,
  conversation: t.conversations,
  invitee: t.invitees,
  segment: t.segments,
  whatsappTemplate: t.whatsappTemplates,
  whatsappAccount: t.whatsappAccounts,
  cannedReply: t.cannedReplies,
} satisfies Record<ResourceKind, { id: unknown; workspaceId: unknown }>;

/** The workspace a resource belongs to, or null when no such resource exists. */
export async function workspaceOfResource(ex: Executor, kind: ResourceKind, id: string): Promise<string | null> {
  if (!isUuid(id)) return null;
  const table = resourceTables[kind];
  const [row] = await ex.select({ workspaceId: table.workspaceId }).from(table).where(eq(table.id, id)).limit(1);
  return row?.workspaceId ?? null;
}

export const toBot = (r: typeof t.bots.$inferSelect): Bot => ({
  id: r.id,
  title: r.title,
  createdAt: iso(r.createdAt),
  lastDeployedAt: isoOrNull(r.lastDeployedAt),
  isActive: r.isActive,
  channel: 'WhatsApp',
  rfInstance: r.rfInstance as BotDraftRfInstance,
  memberId: r.memberId,
  workspaceId: r.workspaceId,
  whatsappAccountId: r.whatsappAccountId,
  publishedVersionId: r.publishedVersionId,
  hasUnpublishedChanges: r.publishedRevision !== r.draftRevision,
});

export const toCampaign = (r: typeof t.campaigns.$inferSelect): Campaign => ({
  id: r.id,
  name: r.name,
  resumeAt: isoOrNull(r.resumeAt),
  rfInstance: r.rfInstance as CampaignDraftRfInstance,
  status: r.status,
  createdAt: iso(r.createdAt),
  memberId: r.memberId,
  workspaceId: r.workspaceId,
  type: r.type,
  scheduledAt: isoOrNull(r.scheduledAt),
  deployedAt: isoOrNull(r.deployedAt),
  triggerKeyHint: r.triggerKeyHint,
  halt: r.haltCode !== null && r.haltedAt ? { code: r.haltCode, reason: r.haltReason ?? '', at: iso(r.haltedAt) } : null,
  hold: r.holdReason !== null && r.heldUntil ? { reason: r.holdReason, until: iso(r.heldUntil) } : null,
});

export const toAttribute = (r: typeof t.attributes.$inferSelect): Attribute => ({
  id: r.id,
  name: r.name,
  createdAt: iso(r.createdAt),
  description: r.description,
  type: r.type,
  format: r.format,
  workspaceId: r.workspaceId,
  memberId: r.memberId,
});

export const toContact = (r: typeof t.contacts.$inferSelect): Contact => ({
  id: r.id,
  createdAt: iso(r.createdAt),
  workspaceId: r.workspaceId,
  name: r.name,
  attributes: r.attributes ?? {},
  channel: 'WhatsApp',
  phoneNumber: r.phoneNumber,
  email: r.email,
  tags: r.tags ?? [],
  country: r.country,
  city: r.city,
  meta_source_id: r.metaSourceId,
  meta_source_type: r.metaSourceType,
  meta_ctwa_clid: r.metaCtwaClid,
  optedOut: r.optedOutAt !== null,
  optOut: r.optedOutAt && r.optedOutSource ? { source: r.optedOutSource, at: iso(r.optedOutAt), memberId: r.optedOutByMemberId } : null,
  marketingConsent:
    r.marketingConsent && r.marketingConsentSource && r.marketingConsentAt
      ? { value: r.marketingConsent, source: r.marketingConsentSource, at: iso(r.marketingConsentAt) }
      : null,
  userId: r.userId,
  parentUserId: r.parentUserId,
  username: r.username,
});

export const toSegment = (r: typeof t.segments.$inferSelect): Segment => ({
  id: r.id,
  name: r.name,
  filters: r.filters as SegmentFilter[],
  createdAt: iso(r.createdAt),
  workspaceId: r.workspaceId,
  memberId: r.memberId,
});

export const toInvitee = (r: typeof t.invitees.$inferSelect): Invitee => ({
  id: r.id,
  email: r.email,
  used: r.used,
  role: r.role,
  token: r.token,
  createdAt: iso(r.createdAt),
  memberId: r.memberId,
  workspaceId: r.workspaceId,
});

export const toWhatsappAccount = (r: typeof t.whatsappAccounts.$inferSelect): WhatsappAccount => ({
  id: r.id,
  phoneNumber: r.phoneNumber,
  wabaAccountId: r.wabaAccountId,
  appId: r.appId,
  phoneNumberId: r.phoneNumberId,
  token: `••••••••${r.tokenLast4}`,
  workspaceId: r.workspaceId,
  createdAt: iso(r.createdAt),
  throughputPerSecond: r.throughputPerSecond,
  health: r.healthUpdatedAt
    ? {
        qualityRating: r.qualityRating,
        messagingLimitTier: r.messagingLimitTier,
        portfolioMessagingLimit: r.portfolioMessagingLimit,
        throughputLevel: r.throughputLevel,
        lastEvent: r.qualityEvent,
        updatedAt: iso(r.healthUpdatedAt),
      }
    : null,
});

export const toTemplate = (r: typeof t.whatsappTemplates.$inferSelect): WhatsappTemplate => ({
  id: r.id,
  name: r.name,
  status: r.status,
  createdAt: iso(r.createdAt),
  language: r.language,
  memberId: r.memberId,
  whatsappTemplateId: r.whatsappTemplateId,
  mediaUrl: r.mediaUrl,
  category: r.category as WhatsappTemplate['category'],
  components: r.components as TemplateComponent[],
  workspaceId: r.workspaceId,
  whatsappAccountId: r.whatsappAccountId,
  quality: r.qualityScore && r.qualityAt ? { score: r.qualityScore, previousScore: r.previousQualityScore, at: iso(r.qualityAt) } : null,
  categoryChange: r.categoryChange && r.categoryChangeAt ? { ...r.categoryChange, at: iso(r.categoryChangeAt) } : null,
});

