/**
 * The REST route table: every call of product spec section 7 (plus marked additions) as data.
 * The server registers its routes from it, the renderer's typed client calls through it, the OpenAPI document
 * at /docs is generated from it, and the isolation and malformed-input tests walk it.
 */
import * as z from '../zod';
import { Id, Role, Success, pageOf } from '../schemas/common';
import { InviteSignUpBody, Member, MemberProfile, PatchMeBody, SignUpBody } from '../schemas/auth';
import {
  Attribute,
  AuthMe,
  Bot,
  Campaign,
  CampaignListEntry,
  CampaignLogEntry,
  CampaignResults,
  CampaignSettings,
  CampaignTriggerKey,
  DeployCampaignResult,
  OutboundResult,
  Contact,
  ConversationDetail,
  ConversationListEntry,
  ImportHistory,
  InviteValidation,
  Invitee,
  Segment,
  SegmentPreview,
  WhatsappAccount,
  WhatsappFlow,
  WhatsappTemplate,
  Workspace,
  WorkspaceDetail,
  Conversation,
  ConversationCounts,
  Message,
} from '../schemas/entities';
import {
  ConnectWabaBody,
  ContactExportQuery,
  CreateContactBody,
  ContactListQuery,
  ConversationListQuery,
  CreateAttributeBody,
  CreateBotBody,
  CreateCampaignBody,
  CampaignLogsExportQuery,
  CampaignLogsQuery,
  CampaignSettingsBody,
  DeployCampaignBody,
  PauseCampaignBody,
  RetargetCampaignBody,
  CreateImportBody,
  CreateInviteeBody,
  CreateMessageBody,
  CreateTemplateMessageBody,
  ContactTemplateMessageBody,
  PatchWhatsappBody,
  CreateSegmentBody,
  CreateTemplateBody,
  CreateWhatsappBody,
  CreateWorkspaceBody,
  ListQuery,
  MessageListQuery,
  OutboundBody,
  PatchAttributeBody,
  PatchBotBody,
  PatchCampaignBody,
  PatchContactBody,
  PatchConversationBody,
  SegmentPreviewBody,
  ValidateInviteeBody,
} from '../schemas/requests';
import { EventStreamQuery, WorkspaceEvent } from '../schemas/events';
import { PresenceBody } from '../schemas/presence';
import { MemberRouting, PatchMemberRoutingBody, WebhookSetup } from '../schemas/whatsapp-setup';
import {
  CannedReply,
  CannedReplyListQuery,
  ChatMediaUpload,
  ConversationSearchQuery,
  ConversationSearchResult,
  CreateCannedReplyBody,
  CreateMediaMessageBody,
  CreateInteractiveMessageBody, // issue 19 part C
  CreateNoteBody,
  Mention,
  MentionCount,
  MentionListQuery,
  MessageSearchPage,
  MessageSearchQuery,
  PatchCannedReplyBody,
} from '../schemas/agent-tools';
import { chatMediaMaxBytes, chatMediaMimeTypes } from '../chat-media';
import { BotPreviewAnswerBody, BotPreviewTurn, BotVersion, BotVersionDetail } from '../schemas/bot-canvas';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Tenant resources addressed by id; the server resolves each to its workspace before anything else. */
export const resourceKinds = [
  'bot',
  'campaign',
  'attribute',
  'contact',
  'conversation',
  'invitee',
  'segment',
  'whatsappTemplate',
  'whatsappAccount',
  'cannedReply',
] as const;
export type ResourceKind = (typeof resourceKinds)[number];

/**
 * Who may call a route.
 * - public: no token (sign-up, invitation look-up).
 * - signedIn: any valid token (own profile, creating a workspace).
 * - workspace: `workspaceId` in the path or body names the workspace; the caller must be a member with `role`.
 * - resource: the id in the path (or body) names a tenant resource; its workspace is looked up, then as above.
 * - currentWorkspace: uploads that carry no workspace id act in the caller's current workspace.
 * `role` is the least role: `agent` lets agents and admins in, `admin` only admins.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'signedIn' }
  | { kind: 'workspace'; in: 'params' | 'body'; role: Role }
  | { kind: 'resource'; resource: ResourceKind; in: 'params' | 'body'; field: string; role: Role }
  | { kind: 'currentWorkspace'; role: Role }
  /**
   * Addition (issue 17): a resource route that other systems call. Either the campaign's own trigger key
   * (`Authorization: Bearer <key>` or `X-Parley-Key: <key>`; not an identity, so the e-mail-verification rule
   * does not apply; rate-limited per key) or, as `resource`, a member with `role`.
   */
  | { kind: 'campaignKey'; resource: 'campaign'; in: 'params'; field: string; role: Role };

export interface MultipartSpec {
  /** Form field holding the file. */
  field: string;
  maxBytes: number;
  /** Accepted MIME types; `*` wildcards allowed after the slash (image/*). */
  mimeTypes: readonly string[];
}

export interface RouteDef {
  method: Method;
  /** Fastify-style path (`:param`); the spec writes `{param}`. */
  path: string;
  summary: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  multipart?: MultipartSpec;
  status: 200 | 201;
  response: z.ZodType;
  access: Access;
  /** Not in the product spec: added because the product needs it. */
  addition?: boolean;
  /** Set while the capability behind the route has not landed: the server answers 501 with this text. */
  pending?: string;
  /**
   * A server-sent event stream (text/event-stream) instead of one JSON answer: `response` is the schema of each
   * event's data. Same access check as any route; the token may also come as `?token=` (EventSource).
   */
  stream?: true;
}

const p = {
  bot: z.strictObject({ botId: Id }),
  botVersion: z.strictObject({ botId: Id, versionId: Id }),
  campaign: z.strictObject({ campaignId: Id }),
  attribute: z.strictObject({ attributeId: Id }),
  contact: z.strictObject({ contactId: Id }),
  conversation: z.strictObject({ conversationId: Id }),
  workspace: z.strictObject({ workspaceId: Id }),
  id: z.strictObject({ id: Id }),
  template: z.strictObject({ templateId: Id }),
  segment: z.strictObject({ segmentId: Id }),
  whatsappAccount: z.strictObject({ whatsappAccountId: Id }),
  inviteToken: z.strictObject({ inviteToken: z.string().min(1).max(256) }),
  cannedReply: z.strictObject({ cannedReplyId: Id }),
};

const MB = 1024 * 1024;

const agentIn = (resource: ResourceKind, field: string): Access => ({ kind: 'resource', resource, in: 'params', field, role: 'agent' });
const adminIn = (resource: ResourceKind, field: string): Access => ({ kind: 'resource', resource, in: 'params', field, role: 'admin' });
const wsParams = (role: Role): Access => ({ kind: 'workspace', in: 'params', role });
const wsBody = (role: Role): Access => ({ kind: 'workspace', in: 'body', role });

function route<const R extends RouteDef>(r: R): R {
  return r;
}

export const routes = {
  // ---- auth ----
  signUp: route({
    method: 'POST', path: '/auth/sign-up', tag: 'auth', summary: 'Create an account, its workspace and admin membership',
    body: SignUpBody, status: 201, response: Member, access: { kind: 'public' },
  }),
  signUpWithInvite: route({
    method: 'POST', path: '/auth/sign-up/:inviteToken', tag: 'auth', summary: 'Create an account by invitation and join its workspace',
    params: p.inviteToken, body: InviteSignUpBody, status: 201, response: Member, access: { kind: 'public' },
  }),
  getMe: route({
    method: 'GET', path: '/auth/me', tag: 'auth', summary: 'The signed-in member with its workspaces',
    status: 200, response: AuthMe, access: { kind: 'signedIn' },
  }),
  patchMe: route({
    method: 'PATCH', path: '/auth/me', tag: 'auth', summary: 'Switch the current workspace',
    body: PatchMeBody, status: 200, response: AuthMe, access: { kind: 'signedIn' },
  }),

  // ---- workspace ----
  createWorkspace: route({
    method: 'POST', path: '/workspace', tag: 'workspace', summary: 'Create a workspace; the caller becomes its admin',
    body: CreateWorkspaceBody, status: 201, response: Workspace, access: { kind: 'signedIn' },
  }),
  getWorkspace: route({
    method: 'GET', path: '/workspace/:workspaceId', tag: 'workspace', summary: 'A workspace with its attributes and members',
    params: p.workspace, status: 200, response: WorkspaceDetail, access: wsParams('agent'),
  }),
  listAttributes: route({
    method: 'GET', path: '/workspace/:workspaceId/attributes', tag: 'workspace', summary: 'Attributes of a workspace',
    params: p.workspace, query: ListQuery, status: 200, response: pageOf(Attribute), access: wsParams('agent'),
  }),
  listBots: route({
    method: 'GET', path: '/workspace/:workspaceId/bots', tag: 'workspace', summary: 'Bots of a workspace',
    params: p.workspace, query: ListQuery, status: 200, response: pageOf(Bot), access: wsParams('agent'),
  }),
  listCampaigns: route({
    method: 'GET', path: '/workspace/:workspaceId/campaigns', tag: 'workspace', summary: 'Campaigns of a workspace with their logs',
    params: p.workspace, query: ListQuery, status: 200, response: pageOf(CampaignListEntry), access: wsParams('agent'),
  }),
  listContacts: route({
    method: 'GET', path: '/workspace/:workspaceId/contacts', tag: 'workspace', summary: 'Contacts of a workspace, searchable',
    params: p.workspace, query: ContactListQuery, status: 200, response: pageOf(Contact), access: wsParams('agent'),
  }),
  countContacts: route({
    method: 'GET', path: '/workspace/:workspaceId/contacts/count', tag: 'workspace',
    summary: 'How many contacts a search, segment or opt-out filter selects',
    params: p.workspace, query: ContactExportQuery.omit({ token: true }), status: 200, response: z.object({ count: z.number().int() }),
    access: wsParams('agent'), addition: true,
  }),
  createContact: route({
    method: 'POST', path: '/contact', tag: 'contact', summary: 'Add a contact by hand (phone number stored E.164; 409 when it exists)',
    body: CreateContactBody, status: 201, response: Contact, access: wsBody('agent'), addition: true,
  }),
  deleteContact: route({
    method: 'DELETE', path: '/contact/:contactId', tag: 'contact', summary: 'Delete a contact with its conversations and messages (admins)',
    params: p.contact, status: 200, response: Success, access: adminIn('contact', 'contactId'), addition: true,
  }),
  exportContacts: route({
    method: 'GET', path: '/workspace/:workspaceId/contacts/export.csv', tag: 'workspace',
    summary: 'The contacts of a search, segment or opt-out filter as CSV (text/csv, streamed; admins; token also as ?token=)',
    params: p.workspace, query: ContactExportQuery, status: 200, response: z.string(), access: wsParams('admin'), addition: true,
    stream: true,
  }),
  listConversations: route({
    method: 'GET', path: '/workspace/:workspaceId/conversations', tag: 'workspace',
    summary: 'Conversations of a workspace by tab (me, assigned, open, closed), newest activity first',
    params: p.workspace, query: ConversationListQuery, status: 200, response: pageOf(ConversationListEntry), access: wsParams('agent'),
  }),
  countConversations: route({
    method: 'GET', path: '/workspace/:workspaceId/conversations/counts', tag: 'workspace',
    summary: 'How many conversations each live-chat tab holds (me, assigned, open, closed), and how many are unread for the caller',
    params: p.workspace, status: 200, response: ConversationCounts, access: wsParams('agent'), addition: true,
  }),
  listInvitees: route({
    method: 'GET', path: '/workspace/:workspaceId/invitees', tag: 'workspace', summary: 'Open invitations of a workspace (admins)',
    params: p.workspace, query: ListQuery, status: 200, response: pageOf(Invitee), access: wsParams('admin'),
  }),
  listMembers: route({
    method: 'GET', path: '/workspace/:workspaceId/members', tag: 'workspace', summary: 'Members with identity profile data',
    params: p.workspace, query: ListQuery, status: 200, response: pageOf(MemberProfile), access: wsParams('agent'),
  }),
  listSegments: route({
    method: 'GET', path: '/workspace/:workspaceId/segments', tag: 'workspace', summary: 'Saved segments of a workspace',
    params: p.workspace, query: ListQuery, status: 200, response: pageOf(Segment), access: wsParams('agent'),
  }),
  listWhatsappAccounts: route({
    method: 'GET', path: '/workspace/:workspaceId/whatsapp', tag: 'workspace', summary: 'WhatsApp accounts (tokens masked)',
    params: p.workspace, query: ListQuery, status: 200, response: pageOf(WhatsappAccount), access: wsParams('agent'),
  }),
  listWhatsappTemplates: route({
    method: 'GET', path: '/workspace/:workspaceId/whatsapp-templates', tag: 'workspace', summary: 'WhatsApp message templates',
    params: p.workspace, query: ListQuery, status: 200, response: pageOf(WhatsappTemplate), access: wsParams('agent'),
  }),
  listImportHistory: route({
    method: 'GET', path: '/workspace/:workspaceId/import-history', tag: 'workspace', summary: 'Contact imports of a workspace',
    params: p.workspace, query: ListQuery, status: 200, response: pageOf(ImportHistory), access: wsParams('agent'), addition: true,
  }),
  streamEvents: route({
    method: 'GET', path: '/workspace/:workspaceId/events', tag: 'workspace',
    summary: 'Live events of a workspace (server-sent events; resume with Last-Event-ID or ?lastEventId=, token also as ?token=)',
    params: p.workspace, query: EventStreamQuery, status: 200, response: WorkspaceEvent, access: wsParams('agent'), addition: true,
    stream: true,
  }),

  // ---- bot ----
  getBot: route({
    method: 'GET', path: '/bot/:botId', tag: 'bot', summary: 'A bot with its canvas',
    params: p.bot, status: 200, response: Bot, access: agentIn('bot', 'botId'),
  }),
  createBot: route({
    method: 'POST', path: '/bot', tag: 'bot', summary: 'Create a bot with a start node',
    body: CreateBotBody, status: 201, response: Bot, access: wsBody('admin'),
  }),
  patchBot: route({
    method: 'PATCH', path: '/bot/:botId', tag: 'bot', summary: 'Update title, activity, deploy time or canvas',
    params: p.bot, body: PatchBotBody, status: 200, response: Bot, access: adminIn('bot', 'botId'),
  }),
  uploadBotMedia: route({
    method: 'POST', path: '/bot/:botId/uploadMedia', tag: 'bot', summary: 'Upload a media file for a media node',
    params: p.bot, multipart: { field: 'file', maxBytes: 16 * MB, mimeTypes: ['image/jpeg', 'image/png', 'video/mp4', 'video/3gpp', 'application/pdf'] },
    status: 201, response: z.object({ mediaLink: z.string() }), access: adminIn('bot', 'botId'),
  }),
  connectWaba: route({
    method: 'PATCH', path: '/bot/:botId/connectWaba', tag: 'bot', summary: 'Tie the bot to a WhatsApp account of its workspace',
    params: p.bot, body: ConnectWabaBody, status: 200, response: Bot, access: adminIn('bot', 'botId'),
  }),
  deleteBot: route({
    method: 'DELETE', path: '/bot/:botId', tag: 'bot', summary: 'Delete a bot',
    params: p.bot, status: 200, response: Success, access: adminIn('bot', 'botId'),
  }),
  // ---- bot additions (issue 18): versions, discarding the draft, preview ----
  listBotVersions: route({
    method: 'GET', path: '/bot/:botId/versions', tag: 'bot', summary: 'Published versions of a bot, newest first (time and author)',
    params: p.bot, status: 200, response: z.array(BotVersion), access: agentIn('bot', 'botId'), addition: true,
  }),
  getBotVersion: route({
    method: 'GET', path: '/bot/:botId/versions/:versionId', tag: 'bot', summary: 'One published version with its canvas',
    params: p.botVersion, status: 200, response: BotVersionDetail, access: agentIn('bot', 'botId'), addition: true,
  }),
  restoreBotVersion: route({
    method: 'POST', path: '/bot/:botId/versions/:versionId/restore', tag: 'bot', summary: 'Make a published version the draft (not published until deployed)',
    params: p.botVersion, body: z.strictObject({}).optional(), status: 200, response: Bot, access: adminIn('bot', 'botId'), addition: true,
  }),
  discardBotChanges: route({
    method: 'POST', path: '/bot/:botId/discardChanges', tag: 'bot', summary: 'Replace the draft by the published version',
    params: p.bot, body: z.strictObject({}).optional(), status: 200, response: Bot, access: adminIn('bot', 'botId'), addition: true,
  }),
  startBotPreview: route({
    method: 'POST', path: '/bot/:botId/preview', tag: 'bot', summary: 'Run the draft against a simulated customer: the first turn (writes nothing)',
    params: p.bot, body: z.strictObject({}).optional(), status: 200, response: BotPreviewTurn, access: adminIn('bot', 'botId'), addition: true,
  }),
  answerBotPreview: route({
    method: 'POST', path: '/bot/:botId/preview/answer', tag: 'bot', summary: "The simulated customer's answer and the bot's next turn (writes nothing)",
    params: p.bot, body: BotPreviewAnswerBody, status: 200, response: BotPreviewTurn, access: adminIn('bot', 'botId'), addition: true,
  }),

  // ---- campaign ----
  getCampaign: route({
    method: 'GET', path: '/campaign/:campaignId', tag: 'campaign', summary: 'A campaign with its canvas',
    params: p.campaign, status: 200, response: Campaign, access: agentIn('campaign', 'campaignId'),
  }),
  createCampaign: route({
    method: 'POST', path: '/campaign', tag: 'campaign', summary: 'Create a one-time or recurring campaign (draft)',
    body: CreateCampaignBody, status: 201, response: Campaign, access: wsBody('admin'),
  }),
  deployCampaign: route({
    method: 'POST', path: '/campaign/:campaignId/deploy', tag: 'campaign',
    summary: 'Start sending a campaign (400 lists every problem of its canvas); addition: startAt schedules a one-time campaign',
    params: p.campaign, body: DeployCampaignBody.optional(), status: 200, response: DeployCampaignResult, access: adminIn('campaign', 'campaignId'),
  }),
  patchCampaign: route({
    method: 'PATCH', path: '/campaign/:campaignId', tag: 'campaign', summary: 'Update name or canvas',
    params: p.campaign, body: PatchCampaignBody, status: 200, response: Campaign, access: adminIn('campaign', 'campaignId'),
  }),
  deleteCampaign: route({
    method: 'DELETE', path: '/campaign/:campaignId', tag: 'campaign', summary: 'Delete a campaign',
    params: p.campaign, status: 200, response: Success, access: adminIn('campaign', 'campaignId'),
  }),
  triggerOutbound: route({
    method: 'POST', path: '/outbound/:campaignId', tag: 'campaign',
    summary: "Trigger a recurring campaign for a list of records (an admin's token or the campaign's trigger key; per-record results are an addition)",
    params: p.campaign, body: OutboundBody, status: 200, response: OutboundResult,
    access: { kind: 'campaignKey', resource: 'campaign', in: 'params', field: 'campaignId', role: 'admin' },
  }),
  // ---- campaign additions (issue 17) ----
  pauseCampaign: route({
    method: 'POST', path: '/campaign/:campaignId/pause', tag: 'campaign', summary: 'Pause a running campaign (resumeAt resumes it then)',
    params: p.campaign, body: PauseCampaignBody.optional(), status: 200, response: Campaign, access: adminIn('campaign', 'campaignId'), addition: true,
  }),
  resumeCampaign: route({
    method: 'POST', path: '/campaign/:campaignId/resume', tag: 'campaign', summary: 'Resume a paused campaign',
    params: p.campaign, body: z.strictObject({}).optional(), status: 200, response: Campaign, access: adminIn('campaign', 'campaignId'), addition: true,
  }),
  cancelCampaignSchedule: route({
    method: 'POST', path: '/campaign/:campaignId/cancel-schedule', tag: 'campaign', summary: 'Cancel the scheduled start of a campaign (back to draft)',
    params: p.campaign, body: z.strictObject({}).optional(), status: 200, response: Campaign, access: adminIn('campaign', 'campaignId'), addition: true,
  }),
  getCampaignResults: route({
    method: 'GET', path: '/campaign/:campaignId/results', tag: 'campaign', summary: 'Counts of a campaign and its sends over time',
    params: p.campaign, status: 200, response: CampaignResults, access: agentIn('campaign', 'campaignId'), addition: true,
  }),
  listCampaignLogs: route({
    method: 'GET', path: '/campaign/:campaignId/logs', tag: 'campaign', summary: 'Log lines of a campaign, newest first, filtered by outcome',
    params: p.campaign, query: CampaignLogsQuery, status: 200, response: pageOf(CampaignLogEntry), access: agentIn('campaign', 'campaignId'), addition: true,
  }),
  exportCampaignLogs: route({
    method: 'GET', path: '/campaign/:campaignId/logs.csv', tag: 'campaign',
    summary: 'The log lines of a campaign as CSV (text/csv, streamed; token also as ?token=)',
    params: p.campaign, query: CampaignLogsExportQuery, status: 200, response: z.string(), access: agentIn('campaign', 'campaignId'), addition: true,
    stream: true,
  }),
  rotateCampaignTriggerKey: route({
    method: 'POST', path: '/campaign/:campaignId/trigger-key', tag: 'campaign',
    summary: 'Create or replace the trigger key of a recurring campaign (shown once; the old key stops working)',
    params: p.campaign, body: z.strictObject({}).optional(), status: 201, response: CampaignTriggerKey, access: adminIn('campaign', 'campaignId'), addition: true,
  }),
  retargetCampaign: route({
    method: 'POST', path: '/campaign/:campaignId/retarget', tag: 'campaign',
    summary: 'A new one-time draft campaign for exactly the recipients of this one with an outcome',
    params: p.campaign, body: RetargetCampaignBody, status: 201, response: Campaign, access: adminIn('campaign', 'campaignId'), addition: true,
  }),
  getCampaignSettings: route({
    method: 'GET', path: '/workspace/:workspaceId/campaign-settings', tag: 'campaign', summary: 'Opt-out keywords and time zone of a workspace',
    params: p.workspace, status: 200, response: CampaignSettings, access: wsParams('agent'), addition: true,
  }),
  patchCampaignSettings: route({
    method: 'PATCH', path: '/workspace/:workspaceId/campaign-settings', tag: 'campaign', summary: 'Change the opt-out keywords and time zone of a workspace',
    params: p.workspace, body: CampaignSettingsBody, status: 200, response: CampaignSettings, access: wsParams('admin'), addition: true,
  }),

  // ---- attribute ----
  createAttribute: route({
    method: 'POST', path: '/attribute', tag: 'attribute', summary: 'Create an attribute (409 if the name exists in the workspace)',
    body: CreateAttributeBody, status: 201, response: Attribute, access: wsBody('admin'),
  }),
  patchAttribute: route({
    method: 'PATCH', path: '/attribute/:attributeId', tag: 'attribute', summary: 'Update an attribute',
    params: p.attribute, body: PatchAttributeBody, status: 200, response: Attribute, access: adminIn('attribute', 'attributeId'),
  }),
  deleteAttribute: route({
    method: 'DELETE', path: '/attribute/:attributeId', tag: 'attribute', summary: 'Delete an attribute',
    params: p.attribute, status: 200, response: Success, access: adminIn('attribute', 'attributeId'),
  }),

  // ---- contact ----
  listContactConversations: route({
    method: 'GET', path: '/contact/:contactId/conversations', tag: 'contact', summary: "A contact's conversations with their last message",
    params: p.contact, query: ListQuery, status: 200, response: pageOf(ConversationListEntry), access: agentIn('contact', 'contactId'),
  }),
  patchContact: route({
    method: 'PATCH', path: '/contact/:contactId', tag: 'contact', summary: 'Update name, e-mail, country or attributes',
    params: p.contact, body: PatchContactBody, status: 200, response: Contact, access: agentIn('contact', 'contactId'),
  }),

  // ---- member ----
  uploadProfilePhoto: route({
    method: 'POST', path: '/member/profile-photo', tag: 'member', summary: "Upload the caller's profile photo",
    multipart: { field: 'file', maxBytes: 5 * MB, mimeTypes: ['image/jpeg', 'image/png', 'image/webp'] },
    status: 201, response: z.object({ photoUrl: z.string() }), access: { kind: 'signedIn' },
  }),

  // ---- message ----
  createMessage: route({
    method: 'POST', path: '/message', tag: 'message', summary: 'Send a text to the contact of a conversation',
    body: CreateMessageBody, status: 201, response: Message,
    access: { kind: 'resource', resource: 'conversation', in: 'body', field: 'conversationId', role: 'agent' },
  }),
  sendTemplateMessage: route({
    method: 'POST', path: '/message/template', tag: 'message',
    summary: 'Send an approved template to the contact of a conversation (allowed outside the 24-hour window)',
    body: CreateTemplateMessageBody, status: 201, response: Message,
    access: { kind: 'resource', resource: 'conversation', in: 'body', field: 'conversationId', role: 'agent' },
    addition: true,
  }),
  sendContactTemplateMessage: route({
    method: 'POST', path: '/contact/:contactId/template-message', tag: 'contact',
    summary: "Start a conversation: an approved template to a contact on the template's number (finds or opens the conversation)",
    params: p.contact, body: ContactTemplateMessageBody, status: 201, response: Message, access: agentIn('contact', 'contactId'),
    addition: true,
  }),

  // ---- import ----
  uploadImportFile: route({
    method: 'POST', path: '/import-history/upload', tag: 'import', summary: 'Upload a CSV of contacts',
    multipart: { field: 'file', maxBytes: 200 * MB, mimeTypes: ['text/csv', 'text/plain', 'application/vnd.ms-excel', 'application/octet-stream'] },
    status: 201, response: z.object({ fileUrl: z.string() }), access: { kind: 'currentWorkspace', role: 'agent' },
  }),
  createImport: route({
    method: 'POST', path: '/import-history', tag: 'import', summary: 'Import an uploaded CSV into the audience',
    body: CreateImportBody, status: 201, response: ImportHistory, access: wsBody('agent'),
  }),

  // ---- invitee ----
  createInvitee: route({
    method: 'POST', path: '/invitee', tag: 'invitee', summary: 'Invite someone by e-mail with a role',
    body: CreateInviteeBody, status: 201, response: Success, access: wsBody('admin'),
  }),
  validateInvitee: route({
    method: 'POST', path: '/invitee/validate', tag: 'invitee', summary: 'Look up an invitation by id',
    body: ValidateInviteeBody, status: 200, response: InviteValidation, access: { kind: 'public' },
  }),
  acceptInvitee: route({
    method: 'POST', path: '/invitee/accept', tag: 'invitee', summary: 'Join the workspace of an invitation as an existing user',
    body: z.strictObject({ token: z.string().min(1).max(256) }), status: 200, response: AuthMe, access: { kind: 'signedIn' },
    addition: true,
  }),
  deleteInvitee: route({
    method: 'DELETE', path: '/invitee/:id', tag: 'invitee', summary: 'Revoke an invitation',
    params: p.id, status: 200, response: Success, access: adminIn('invitee', 'id'),
  }),

  // ---- conversation ----
  getConversation: route({
    method: 'GET', path: '/conversation/:conversationId', tag: 'conversation', summary: 'A conversation with events, contact and messages',
    params: p.conversation, status: 200, response: ConversationDetail, access: agentIn('conversation', 'conversationId'),
  }),
  listConversationMessages: route({
    method: 'GET', path: '/conversation/:conversationId/messages', tag: 'conversation',
    summary: 'Messages of a conversation, newest first; `before` (a message id) pages back beyond those the detail carries',
    params: p.conversation, query: MessageListQuery, status: 200, response: pageOf(Message), access: agentIn('conversation', 'conversationId'),
    addition: true,
  }),
  markConversationRead: route({
    method: 'POST', path: '/conversation/:conversationId/read', tag: 'conversation',
    summary: "Mark the conversation read for the caller: it leaves the caller's unread counts until the customer writes again",
    params: p.conversation, status: 200, response: Success, access: agentIn('conversation', 'conversationId'), addition: true,
  }),
  patchConversation: route({
    method: 'PATCH', path: '/conversation/:conversationId', tag: 'conversation', summary: 'Open, close or assign a conversation',
    params: p.conversation, body: PatchConversationBody, status: 200, response: Conversation, access: agentIn('conversation', 'conversationId'),
  }),

  // ---- templates ----
  createTemplate: route({
    method: 'POST', path: '/whatsapp-template', tag: 'template', summary: 'Submit a message template to WhatsApp for review',
    body: CreateTemplateBody, status: 201, response: WhatsappTemplate, access: wsBody('admin'),
  }),
  syncTemplates: route({
    method: 'POST', path: '/workspace/:workspaceId/whatsapp-templates/sync', tag: 'template',
    summary: "Pull the templates of the workspace's WhatsApp numbers from WhatsApp: update statuses, add templates made elsewhere",
    params: p.workspace, body: z.strictObject({}).optional(), status: 200,
    response: z.object({ updated: z.number().int(), imported: z.number().int() }), access: wsParams('admin'), addition: true,
  }),
  uploadTemplateMedia: route({
    method: 'POST', path: '/whatsapp-template/upload-media', tag: 'template', summary: 'Upload a template header sample',
    multipart: { field: 'file', maxBytes: 16 * MB, mimeTypes: ['image/jpeg', 'image/png', 'video/mp4', 'application/pdf'] },
    status: 201, response: z.object({ assetUrl: z.string(), FBhandle: z.string() }), access: { kind: 'currentWorkspace', role: 'admin' },
  }),
  deleteTemplate: route({
    method: 'DELETE', path: '/whatsapp-template/:templateId', tag: 'template', summary: 'Delete a template here and at WhatsApp',
    params: p.template, status: 200, response: Success, access: adminIn('whatsappTemplate', 'templateId'),
  }),

  // ---- segment ----
  createSegment: route({
    method: 'POST', path: '/segment', tag: 'segment', summary: 'Save a segment of the audience',
    body: CreateSegmentBody, status: 201, response: Segment, access: wsBody('agent'),
  }),
  previewSegment: route({
    method: 'POST', path: '/workspace/:workspaceId/segments/preview', tag: 'segment',
    summary: 'Count and first page of the contacts that filters select, before saving them as a segment',
    params: p.workspace, body: SegmentPreviewBody, status: 200, response: SegmentPreview, access: wsParams('agent'), addition: true,
  }),
  deleteSegment: route({
    method: 'DELETE', path: '/segment/:segmentId', tag: 'segment', summary: 'Delete a segment',
    params: p.segment, status: 200, response: Success, access: agentIn('segment', 'segmentId'),
  }),

  // ---- WhatsApp accounts and flows ----
  createWhatsappAccount: route({
    method: 'POST', path: '/whatsapp', tag: 'whatsapp', summary: 'Connect a WhatsApp number (credentials checked with the Graph API)',
    body: CreateWhatsappBody, status: 201, response: WhatsappAccount, access: wsBody('admin'),
  }),
  patchWhatsappAccount: route({
    method: 'PATCH', path: '/whatsapp/:id', tag: 'whatsapp', summary: 'Replace the token of a connected number (checked with the Graph API) or set its throughputPerSecond',
    params: p.id, body: PatchWhatsappBody, status: 200, response: WhatsappAccount, access: adminIn('whatsappAccount', 'id'), addition: true,
  }),
  refreshWhatsappHealth: route({
    method: 'POST', path: '/whatsapp/:id/health', tag: 'whatsapp',
    summary: "Read the number's quality rating, messaging-limit tier and throughput level from the Graph API now, store and answer them",
    params: p.id, body: z.strictObject({}).optional(), status: 200, response: WhatsappAccount, access: adminIn('whatsappAccount', 'id'), addition: true,
  }),
  deleteWhatsappAccount: route({
    method: 'DELETE', path: '/whatsapp/:id', tag: 'whatsapp', summary: 'Disconnect a WhatsApp number',
    params: p.id, status: 200, response: Success, access: adminIn('whatsappAccount', 'id'),
  }),
  listWhatsappFlows: route({
    method: 'GET', path: '/whatsapp-flow/:whatsappAccountId', tag: 'whatsapp', summary: 'WhatsApp Flows of the account',
    params: p.whatsappAccount, status: 200, response: z.array(WhatsappFlow), access: agentIn('whatsappAccount', 'whatsappAccountId'),
  }),

  // ---- issue 19 part A (additions): canned replies, notes and mentions, search, media sends ----
  listCannedReplies: route({
    method: 'GET', path: '/workspace/:workspaceId/canned-replies', tag: 'canned-reply',
    summary: "The workspace's canned replies and the caller's personal ones, by shortcut; `search` matches shortcut and text",
    params: p.workspace, query: CannedReplyListQuery, status: 200, response: pageOf(CannedReply), access: wsParams('agent'), addition: true,
  }),
  createCannedReply: route({
    method: 'POST', path: '/canned-reply', tag: 'canned-reply',
    summary: 'Save a canned reply: scope workspace (admins) or personal (any member, seen only by them); 409 if the shortcut is taken',
    body: CreateCannedReplyBody, status: 201, response: CannedReply, access: wsBody('agent'), addition: true,
  }),
  patchCannedReply: route({
    method: 'PATCH', path: '/canned-reply/:cannedReplyId', tag: 'canned-reply',
    summary: "Change a canned reply's shortcut or text (workspace replies: admins; personal: their member)",
    params: p.cannedReply, body: PatchCannedReplyBody, status: 200, response: CannedReply, access: agentIn('cannedReply', 'cannedReplyId'), addition: true,
  }),
  deleteCannedReply: route({
    method: 'DELETE', path: '/canned-reply/:cannedReplyId', tag: 'canned-reply',
    summary: 'Delete a canned reply (workspace replies: admins; personal: their member)',
    params: p.cannedReply, status: 200, response: Success, access: agentIn('cannedReply', 'cannedReplyId'), addition: true,
  }),
  createNote: route({
    method: 'POST', path: '/message/note', tag: 'message',
    summary: 'Leave an internal note in a conversation (never sent to WhatsApp); mentioned members are told on the event stream',
    body: CreateNoteBody, status: 201, response: Message,
    access: { kind: 'resource', resource: 'conversation', in: 'body', field: 'conversationId', role: 'agent' }, addition: true,
  }),
  uploadChatMedia: route({
    method: 'POST', path: '/conversation/:conversationId/media', tag: 'message',
    summary: "Upload a file to send in a conversation (WhatsApp's media types; images 5 MB, video and audio 16 MB, documents 100 MB)",
    params: p.conversation, multipart: { field: 'file', maxBytes: chatMediaMaxBytes, mimeTypes: chatMediaMimeTypes },
    status: 201, response: ChatMediaUpload, access: agentIn('conversation', 'conversationId'), addition: true,
  }),
  sendMediaMessage: route({
    method: 'POST', path: '/message/media', tag: 'message',
    summary: 'Send an uploaded image, video, audio file or document (with an optional caption) inside the 24-hour window',
    body: CreateMediaMessageBody, status: 201, response: Message,
    access: { kind: 'resource', resource: 'conversation', in: 'body', field: 'conversationId', role: 'agent' }, addition: true,
  }),
  listMentions: route({
    method: 'GET', path: '/workspace/:workspaceId/mentions', tag: 'message',
    summary: "Notes that mention the caller, newest first; `unread=true` for those not yet seen",
    params: p.workspace, query: MentionListQuery, status: 200, response: pageOf(Mention), access: wsParams('agent'), addition: true,
  }),
  countMentions: route({
    method: 'GET', path: '/workspace/:workspaceId/mentions/count', tag: 'message', summary: "How many of the caller's mentions are unread",
    params: p.workspace, status: 200, response: MentionCount, access: wsParams('agent'), addition: true,
  }),
  markMentionsRead: route({
    method: 'POST', path: '/conversation/:conversationId/mentions/read', tag: 'conversation',
    summary: "Mark the caller's mentions in this conversation seen",
    params: p.conversation, status: 200, response: Success, access: agentIn('conversation', 'conversationId'), addition: true,
  }),
  searchConversation: route({
    method: 'GET', path: '/conversation/:conversationId/search', tag: 'conversation',
    summary: 'Every message of the conversation matching the words of `q` (full text, word prefixes), oldest first',
    params: p.conversation, query: ConversationSearchQuery, status: 200, response: ConversationSearchResult,
    access: agentIn('conversation', 'conversationId'), addition: true,
  }),
  searchMessages: route({
    method: 'GET', path: '/workspace/:workspaceId/messages/search', tag: 'workspace',
    summary: "Messages of the workspace's conversations matching the words of `q` (full text, word prefixes), newest first",
    params: p.workspace, query: MessageSearchQuery, status: 200, response: MessageSearchPage, access: wsParams('agent'), addition: true,
  }),

  // ---- issue 19 part B (additions): presence, webhook setup, routing ----
  listMemberRouting: route({
    method: 'GET', path: '/workspace/:workspaceId/member-routing', tag: 'workspace',
    summary: "Every member's availability for auto-assignment and their capacity of open conversations",
    params: p.workspace, status: 200, response: z.array(MemberRouting), access: wsParams('agent'), addition: true,
  }),
  patchMemberRouting: route({
    method: 'PATCH', path: '/workspace/:workspaceId/member-routing', tag: 'workspace',
    summary: 'Turn auto-assignment on or off for a member and set their capacity (the member themself or an admin)',
    params: p.workspace, body: PatchMemberRoutingBody, status: 200, response: MemberRouting, access: wsParams('agent'), addition: true,
  }),
  getWebhookSetup: route({
    method: 'GET', path: '/workspace/:workspaceId/whatsapp-webhook', tag: 'whatsapp',
    summary: "The webhook callback URL and verify token to give Meta (admins), and when Meta's verification call last reached the server",
    params: p.workspace, status: 200, response: WebhookSetup, access: wsParams('admin'), addition: true,
  }),
  setPresence: route({
    method: 'POST', path: '/conversation/:conversationId/presence', tag: 'conversation',
    summary: "Say the caller views, types in or left the conversation: members of the workspace see it on the event stream (`event: presence`, not stored); typing also shows WhatsApp's typing indicator to the customer (throttled)",
    params: p.conversation, body: PresenceBody, status: 200, response: Success, access: agentIn('conversation', 'conversationId'), addition: true,
  }),

  // ---- issue 19 part C (additions): interactive messages from the composer ----
  sendInteractiveMessage: route({
    method: 'POST', path: '/message/interactive', tag: 'message',
    summary: "Send reply buttons (1-3) or a list menu (at most 10 rows) inside the 24-hour window, within WhatsApp's limits",
    body: CreateInteractiveMessageBody, status: 201, response: Message,
    access: { kind: 'resource', resource: 'conversation', in: 'body', field: 'conversationId', role: 'agent' }, addition: true,
  }),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
export const routeNames = Object.keys(routes) as RouteName[];

/** `{param}` form of a path, as the spec and OpenAPI write it. */
export function specPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

/** Fills `:param` placeholders. */
export function buildPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`Missing path parameter ${k} for ${path}`);
    return encodeURIComponent(v);
  });
}
