/**
 * A valid request for every route of the table. The type makes the compiler demand an example body for any
 * route that declares one, so a route added later is walked by the isolation and malformed-input tests.
 */
import type { z } from 'zod';
import { type RouteDef, type RouteName, type Routes, buildPath } from '../../src/shared/api/routes';
import type { Seeded } from './fixtures';

type BodyRoute = { [K in RouteName]: Routes[K] extends { body: z.ZodType } ? K : never }[RouteName];

export const exampleBodies: { [K in BodyRoute]: (s: Seeded) => unknown } = {
  signUp: () => ({ email: `x-${Date.now()}@acme-test.com`, password: 'password1', name: 'Xavier', organizationName: 'Xeno Ltd' }),
  signUpWithInvite: (s) => ({ email: s.inviteEmail, password: 'password1' }),
  patchMe: (s) => ({ currentWorkspaceId: s.workspaceId }),
  createWorkspace: () => ({ name: 'Second shop' }),
  createBot: (s) => ({ workspaceId: s.workspaceId }),
  patchBot: () => ({ title: 'Renamed bot' }),
  connectWaba: (s) => ({ wabaAccountId: s.ids.whatsappAccount }),
  createCampaign: (s) => ({ workspaceId: s.workspaceId, type: 'recurring' }),
  deployCampaign: () => ({}),
  patchCampaign: () => ({ name: 'Renamed campaign' }),
  // bots
  restoreBotVersion: () => ({}),
  discardBotChanges: () => ({}),
  startBotPreview: () => ({}),
  answerBotPreview: () => ({
    session: { currentNodeId: null, step: 0, waitingFor: null, invalidAnswers: 0, variables: {}, ended: true },
    answer: { type: 'text', text: 'hi' },
  }),
  patchBotSettings: () => ({ emailFrom: 'Bakery <bots@bakery.test>' }),
  triggerOutbound: () => [{ phone: '+14155550199', name: 'Lin' }],
  // campaigns
  pauseCampaign: () => ({}),
  resumeCampaign: () => ({}),
  cancelCampaignSchedule: () => ({}),
  rotateCampaignTriggerKey: () => ({}),
  retargetCampaign: () => ({ outcome: 'failed' }),
  patchCampaignSettings: () => ({ optOutKeywords: ['ARRET'] }),
  uploadRateCard: () => ({ fileName: 'rates.csv', content: 'Market,Currency,Marketing,Utility,Authentication\nBrazil,USD,0.0625,0.0068,0.0068\n' }),
  createAttribute: (s) => ({ name: `attr_${Date.now()}`, format: 'number', workspaceId: s.workspaceId }),
  patchAttribute: () => ({ description: 'changed' }),
  patchContact: () => ({ name: 'Changed Name' }),
  createMessage: (s) => ({ text: 'Hello there', conversationId: s.ids.conversation }),
  sendTemplateMessage: (s) => ({
    conversationId: s.ids.conversation,
    templateId: s.ids.whatsappTemplate,
    parameters: { body: ['Ada'] },
  }),
  sendContactTemplateMessage: (s) => ({ templateId: s.ids.whatsappTemplate, parameters: { body: ['Ada'] } }),
  syncTemplates: () => ({}),
  refreshWhatsappHealth: () => ({}),
  createContact: (s) => ({ phoneNumber: `+1415555${String(Date.now()).slice(-4)}`, name: 'Added By Hand', workspaceId: s.workspaceId }),
  createImport: (s) => ({
    fileName: 'c.csv',
    fileUrl: 'file://c.csv',
    workspaceId: s.workspaceId,
    columnAttributeMap: [{ columnName: 'phone', attribute: 'phoneNumber' }],
  }),
  createInvitee: (s) => ({ email: `new-${Date.now()}@acme-test.com`, role: 'agent', workspaceId: s.workspaceId }),
  validateInvitee: (s) => ({ id: s.inviteToken }),
  acceptInvitee: (s) => ({ token: s.inviteToken }),
  patchConversation: () => ({ isActive: false }),
  createTemplate: (s) => ({
    name: 'shipping_update',
    language: 'en_US',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Your order shipped' }],
    whatsappAccountId: s.ids.whatsappAccount,
    workspaceId: s.workspaceId,
  }),
  createSegment: (s) => ({ name: 'Everyone', filters: [], workspaceId: s.workspaceId }),
  previewSegment: () => ({ filters: [{ column: 'plan', value: 'gold', operator: 'IS', conjuction: 'AND' }] }),
  patchWhatsappAccount: () => ({ token: 'EAAG-rotated-token' }),

  createCannedReply: (s) => ({ workspaceId: s.workspaceId, scope: 'personal', shortcut: `hi${Date.now()}`, text: 'Hello {{name}}' }),
  patchCannedReply: () => ({ text: 'Thanks a lot, {{name}}!' }),
  createNote: (s) => ({ conversationId: s.ids.conversation, text: 'Customer is a VIP', mentionedMemberIds: [] }),
  sendMediaMessage: (s) => ({ conversationId: s.ids.conversation, mediaUrl: `/files/${s.workspaceId}/whatsapp-media/00000000-0000-4000-8000-000000000000/x.png` }),

  setPresence: () => ({ state: 'viewing' }),
  sendInteractiveMessage: (s) => ({ conversationId: s.ids.conversation, type: 'buttons', body: 'Which slot suits you?', buttons: [{ title: 'Morning' }] }),
  patchMember: () => ({ role: 'agent' }),
  patchMemberRouting: () => ({ memberId: '00000000-0000-4000-8000-000000000000', available: true }),
  createWhatsappAccount: (s) => ({
    phoneNumber: '+14155552671',
    wabaAccountId: 'waba-2',
    appId: 'app-2',
    phoneNumberId: 'pn-2',
    token: 'EAAG-secret-token',
    workspaceId: s.workspaceId,
  }),
};

/** Path parameters of a route filled with the seeded workspace's ids. */
export function exampleParams(def: RouteDef, s: Seeded): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(def.params?.shape ?? {})) {
    if (key === 'workspaceId') out[key] = s.workspaceId;
    else if (key === 'inviteToken') out[key] = s.inviteToken;
    else if (key === 'versionId') out[key] = '00000000-0000-4000-8000-000000000000'; // no version seeded: the walk sees 404 after the access check
    // No member of its own: removing or demoting a seeded member would change who the walk calls as; 404 after access.
    else if (key === 'memberId') out[key] = '00000000-0000-4000-8000-000000000000';
    else if ((def.access.kind === 'resource' || def.access.kind === 'campaignKey') && def.access.field === key) out[key] = s.ids[def.access.resource];
    else throw new Error(`No example for path parameter ${key} of ${def.path}`);
  }
  return out;
}

/** Required query parameters of a route (the search routes need `q`), keyed by path. */
const exampleQueries: Record<string, Record<string, string>> = {
  '/conversation/:conversationId/search': { q: 'order' },
  '/workspace/:workspaceId/messages/search': { q: 'order' },
};

/** `?q=...` for a route with required query parameters, else ''. */
export function exampleQueryString(def: RouteDef): string {
  const query = exampleQueries[def.path];
  return query ? `?${new URLSearchParams(query)}` : '';
}

export function exampleUrl(def: RouteDef, s: Seeded): string {
  return buildPath(def.path, exampleParams(def, s)) + exampleQueryString(def);
}

export function exampleBody(name: RouteName, s: Seeded): unknown {
  const f = (exampleBodies as Partial<Record<RouteName, (s: Seeded) => unknown>>)[name];
  return f ? f(s) : undefined;
}

