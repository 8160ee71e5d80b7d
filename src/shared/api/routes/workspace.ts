// Routes of a workspace: the workspace itself, the lists hanging off it, contacts added by hand, the event
// stream, and (additions) changing or removing a member and who of its members takes auto-assigned conversations.
import * as z from '../../zod';
import { MemberProfile, PatchMemberRoleBody } from '../../schemas/auth';
import { pageOf, Success } from '../../schemas/common';
import {
  Attribute,
  Bot,
  CampaignListEntry,
  Contact,
  ConversationCounts,
  ConversationListEntry,
  ImportHistory,
  Invitee,
  Segment,
  WhatsappAccount,
  WhatsappTemplate,
  Workspace,
  WorkspaceDetail,
} from '../../schemas/entities';
import { EventStreamQuery, WorkspaceEvent } from '../../schemas/events';
import {
  ContactExportQuery,
  ContactListQuery,
  ConversationListQuery,
  CreateContactBody,
  CreateWorkspaceBody,
  ListQuery,
} from '../../schemas/requests';
import { MemberRouting, PatchMemberRoutingBody } from '../../schemas/whatsapp-setup';
import { adminIn, pathParams, route, wsBody, wsParams } from './define';

export const workspaceRoutes = {
  createWorkspace: route({
    method: 'POST', path: '/workspace', tag: 'workspace', summary: 'Create a workspace; the caller becomes its admin',
    body: CreateWorkspaceBody, status: 201, response: Workspace, access: { kind: 'signedIn' },
  }),
  getWorkspace: route({
    method: 'GET', path: '/workspace/:workspaceId', tag: 'workspace', summary: 'A workspace with its attributes and members',
    params: pathParams.workspace, status: 200, response: WorkspaceDetail, access: wsParams('agent'),
  }),
  listAttributes: route({
    method: 'GET', path: '/workspace/:workspaceId/attributes', tag: 'workspace', summary: 'Attributes of a workspace',
    params: pathParams.workspace, query: ListQuery, status: 200, response: pageOf(Attribute), access: wsParams('agent'),
  }),
  listBots: route({
    method: 'GET', path: '/workspace/:workspaceId/bots', tag: 'workspace', summary: 'Bots of a workspace',
    params: pathParams.workspace, query: ListQuery, status: 200, response: pageOf(Bot), access: wsParams('agent'),
  }),
  listCampaigns: route({
    method: 'GET', path: '/workspace/:workspaceId/campaigns', tag: 'workspace', summary: 'Campaigns of a workspace with their logs',
    params: pathParams.workspace, query: ListQuery, status: 200, response: pageOf(CampaignListEntry), access: wsParams('agent'),
  }),
  listContacts: route({
    method: 'GET', path: '/workspace/:workspaceId/contacts', tag: 'workspace', summary: 'Contacts of a workspace, searchable',
    params: pathParams.workspace, query: ContactListQuery, status: 200, response: pageOf(Contact), access: wsParams('agent'),
  }),
  countContacts: route({
    method: 'GET', path: '/workspace/:workspaceId/contacts/count', tag: 'workspace',
    summary: 'How many contacts a search, segment or opt-out filter selects',
    params: pathParams.workspace, query: ContactExportQuery.omit({ token: true }), status: 200, response: z.object({ count: z.number().int() }),
    access: wsParams('agent'), addition: true,
  }),
  createContact: route({
    method: 'POST', path: '/contact', tag: 'contact', summary: 'Add a contact by hand (phone number stored E.164; 409 when it exists)',
    body: CreateContactBody, status: 201, response: Contact, access: wsBody('agent'), addition: true,
  }),
  deleteContact: route({
    method: 'DELETE', path: '/contact/:contactId', tag: 'contact', summary: 'Delete a contact with its conversations and messages (admins)',
    params: pathParams.contact, status: 200, response: Success, access: adminIn('contact', 'contactId'), addition: true,
  }),
  exportContacts: route({
    method: 'GET', path: '/workspace/:workspaceId/contacts/export.csv', tag: 'workspace',
    summary: 'The contacts of a search, segment or opt-out filter as CSV (text/csv, streamed; admins; token also as ?token=)',
    params: pathParams.workspace, query: ContactExportQuery, status: 200, response: z.string(), access: wsParams('admin'), addition: true,
    stream: true,
  }),
  listConversations: route({
    method: 'GET', path: '/workspace/:workspaceId/conversations', tag: 'workspace',
    summary: 'Conversations of a workspace by tab (me, assigned, open, closed), newest activity first',
    params: pathParams.workspace, query: ConversationListQuery, status: 200, response: pageOf(ConversationListEntry), access: wsParams('agent'),
  }),
  countConversations: route({
    method: 'GET', path: '/workspace/:workspaceId/conversations/counts', tag: 'workspace',
    summary: 'How many conversations each live-chat tab holds (me, assigned, open, closed), and how many are unread for the caller',
    params: pathParams.workspace, status: 200, response: ConversationCounts, access: wsParams('agent'), addition: true,
  }),
  listInvitees: route({
    method: 'GET', path: '/workspace/:workspaceId/invitees', tag: 'workspace', summary: 'Open invitations of a workspace (admins)',
    params: pathParams.workspace, query: ListQuery, status: 200, response: pageOf(Invitee), access: wsParams('admin'),
  }),
  listMembers: route({
    method: 'GET', path: '/workspace/:workspaceId/members', tag: 'workspace', summary: 'Members with identity profile data',
    params: pathParams.workspace, query: ListQuery, status: 200, response: pageOf(MemberProfile), access: wsParams('agent'),
  }),
  patchMember: route({
    method: 'PATCH', path: '/workspace/:workspaceId/members/:memberId', tag: 'workspace',
    summary: "Change a member's role in the workspace (admins; the last admin cannot be demoted, 409)",
    params: pathParams.workspaceMember, body: PatchMemberRoleBody, status: 200, response: MemberProfile, access: wsParams('admin'), addition: true,
  }),
  removeMember: route({
    method: 'DELETE', path: '/workspace/:workspaceId/members/:memberId', tag: 'workspace',
    summary: 'Remove a member from the workspace: their streams end, their open conversations go back to the queue (admins; not the last admin, 409)',
    params: pathParams.workspaceMember, status: 200, response: Success, access: wsParams('admin'), addition: true,
  }),
  listSegments: route({
    method: 'GET', path: '/workspace/:workspaceId/segments', tag: 'workspace', summary: 'Saved segments of a workspace',
    params: pathParams.workspace, query: ListQuery, status: 200, response: pageOf(Segment), access: wsParams('agent'),
  }),
  listWhatsappAccounts: route({
    method: 'GET', path: '/workspace/:workspaceId/whatsapp', tag: 'workspace', summary: 'WhatsApp accounts (tokens masked)',
    params: pathParams.workspace, query: ListQuery, status: 200, response: pageOf(WhatsappAccount), access: wsParams('agent'),
  }),
  listWhatsappTemplates: route({
    method: 'GET', path: '/workspace/:workspaceId/whatsapp-templates', tag: 'workspace', summary: 'WhatsApp message templates',
    params: pathParams.workspace, query: ListQuery, status: 200, response: pageOf(WhatsappTemplate), access: wsParams('agent'),
  }),
  listImportHistory: route({
    method: 'GET', path: '/workspace/:workspaceId/import-history', tag: 'workspace', summary: 'Contact imports of a workspace',
    params: pathParams.workspace, query: ListQuery, status: 200, response: pageOf(ImportHistory), access: wsParams('agent'), addition: true,
  }),
  streamEvents: route({
    method: 'GET', path: '/workspace/:workspaceId/events', tag: 'workspace',
    summary: 'Live events of a workspace (server-sent events; resume with Last-Event-ID or ?lastEventId=, token also as ?token=)',
    params: pathParams.workspace, query: EventStreamQuery, status: 200, response: WorkspaceEvent, access: wsParams('agent'), addition: true,
    stream: true,
  }),
} as const;

export const memberRoutingRoutes = {
  listMemberRouting: route({
    method: 'GET', path: '/workspace/:workspaceId/member-routing', tag: 'workspace',
    summary: "Every member's availability for auto-assignment and their capacity of open conversations",
    params: pathParams.workspace, status: 200, response: z.array(MemberRouting), access: wsParams('agent'), addition: true,
  }),
  patchMemberRouting: route({
    method: 'PATCH', path: '/workspace/:workspaceId/member-routing', tag: 'workspace',
    summary: 'Turn auto-assignment on or off for a member and set their capacity (the member themself or an admin)',
    params: pathParams.workspace, body: PatchMemberRoutingBody, status: 200, response: MemberRouting, access: wsParams('agent'), addition: true,
  }),
} as const;
