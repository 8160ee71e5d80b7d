/**
 * The role matrix, written down apart from the route table: for every call, who may make it.
 *
 * Written by hand from the product spec (section 7, the calls; section 6, the roles) and the README's Roles
 * section, NOT derived from src/shared/api/routes.ts. tests/server/role-matrix.test.ts holds the route table
 * against it both ways, and tests/server/route-walk.test.ts checks each route against an agent with the role
 * written here, so a route whose role is changed in the table by mistake fails twice.
 *
 * Who:
 * - public:   anyone, no token (sign-up, invitation look-up).
 * - signedIn: any signed-in person, whatever their role in any workspace (own profile, new workspace).
 * - agent:    members of the workspace the call acts in, agents and admins alike.
 * - admin:    admins of that workspace only; an agent is answered 403 'Only workspace admins can do this'.
 *
 * HOW TO ADD A ROUTE (the test names each route missing here):
 * 1. Find the call's area in the README's Roles table (live chat, audience, reading, bots and campaigns,
 *    templates, settings, members, own profile). Writes to bots, campaigns, templates, WhatsApp accounts,
 *    attributes and invitations are admin; live chat and the audience are agent; reads are agent.
 * 2. Add a line `'METHOD /path/:param': 'who'` below, under that area, with the path exactly as in the route
 *    table (Fastify `:param` form). If the area is not in the README's table, add a row there first: this file
 *    follows the README, never the other way round.
 * 3. Do not copy the role out of routes.ts: decide it from the README, then let the test tell you if they differ.
 */
export type Who = 'public' | 'signedIn' | 'agent' | 'admin';

export const roleMatrix: Record<string, Who> = {
  // ---- auth and own profile (README: own profile, create a workspace, switch workspace) ----
  'POST /auth/sign-up': 'public',
  'POST /auth/sign-up/:inviteToken': 'public',
  'POST /invitee/validate': 'public',
  'GET /auth/me': 'signedIn',
  'PATCH /auth/me': 'signedIn',
  'POST /workspace': 'signedIn',
  'POST /member/profile-photo': 'signedIn',
  // Joining by an invitation as an existing user: the invitation itself is the permission.
  'POST /invitee/accept': 'signedIn',

  // ---- reading a workspace (README: read bots, campaigns, templates, WhatsApp accounts, flows, members, attributes) ----
  'GET /workspace/:workspaceId': 'agent',
  'GET /workspace/:workspaceId/attributes': 'agent',
  'GET /workspace/:workspaceId/bots': 'agent',
  'GET /workspace/:workspaceId/campaigns': 'agent',
  'GET /workspace/:workspaceId/members': 'agent',
  'GET /workspace/:workspaceId/whatsapp': 'agent',
  'GET /workspace/:workspaceId/whatsapp-templates': 'agent',
  'GET /workspace/:workspaceId/events': 'agent',
  'GET /bot/:botId': 'agent',
  'GET /campaign/:campaignId': 'agent',
  'GET /whatsapp-flow/:whatsappAccountId': 'agent',
  // Reading bots and campaigns (README, Roles: read bots, campaigns).
  'GET /bot/:botId/versions': 'agent',
  'GET /bot/:botId/versions/:versionId': 'agent',
  'GET /campaign/:campaignId/results': 'agent',
  'GET /campaign/:campaignId/logs': 'agent',
  'GET /campaign/:campaignId/logs.csv': 'agent',
  'GET /workspace/:workspaceId/campaign-settings': 'agent',
  'GET /workspace/:workspaceId/bot-settings': 'agent',
  'GET /workspace/:workspaceId/rate-card': 'agent',
  'GET /campaign/:campaignId/estimate': 'agent',

  // ---- live chat (README: conversations, messages, assign, close) ----
  'GET /workspace/:workspaceId/conversations': 'agent',
  'GET /workspace/:workspaceId/conversations/counts': 'agent',
  'GET /conversation/:conversationId': 'agent',
  'GET /conversation/:conversationId/messages': 'agent',
  'POST /conversation/:conversationId/read': 'agent',
  'PATCH /conversation/:conversationId': 'agent',
  'POST /message': 'agent',
  'POST /message/template': 'agent',
  // Additions (README: live chat; canned replies: workspace replies admins only, checked in the
  // service, personal ones anyone's own; availability: one's own, or any member's by an admin, in the service).
  'POST /message/note': 'agent',
  'POST /message/media': 'agent',
  'POST /message/interactive': 'agent',
  'POST /conversation/:conversationId/media': 'agent',
  'POST /conversation/:conversationId/presence': 'agent',
  'POST /conversation/:conversationId/mentions/read': 'agent',
  'GET /conversation/:conversationId/search': 'agent',
  'GET /workspace/:workspaceId/messages/search': 'agent',
  'GET /workspace/:workspaceId/mentions': 'agent',
  'GET /workspace/:workspaceId/mentions/count': 'agent',
  'GET /workspace/:workspaceId/canned-replies': 'agent',
  'POST /canned-reply': 'agent',
  'PATCH /canned-reply/:cannedReplyId': 'agent',
  'DELETE /canned-reply/:cannedReplyId': 'agent',
  'GET /workspace/:workspaceId/member-routing': 'agent',
  'PATCH /workspace/:workspaceId/member-routing': 'agent',

  // ---- audience (README: contacts, import, segments) ----
  'GET /workspace/:workspaceId/contacts': 'agent',
  'GET /contact/:contactId/conversations': 'agent',
  'PATCH /contact/:contactId': 'agent',
  'GET /workspace/:workspaceId/segments': 'agent',
  'POST /segment': 'agent',
  'POST /workspace/:workspaceId/segments/preview': 'agent',
  'DELETE /segment/:segmentId': 'agent',
  'GET /workspace/:workspaceId/import-history': 'agent',
  'POST /import-history/upload': 'agent',
  'POST /import-history': 'agent',

  // ---- bots (README: create, edit, deploy, delete: admins) ----
  'POST /bot': 'admin',
  'PATCH /bot/:botId': 'admin',
  'POST /bot/:botId/uploadMedia': 'admin',
  'PATCH /bot/:botId/connectWaba': 'admin',
  'DELETE /bot/:botId': 'admin',
  'POST /bot/:botId/versions/:versionId/restore': 'admin',
  'POST /bot/:botId/discardChanges': 'admin',
  'POST /bot/:botId/preview': 'admin',
  'POST /bot/:botId/preview/answer': 'admin',

  // ---- campaigns (README: create, edit, deploy, delete, outbound trigger: admins) ----
  'POST /campaign': 'admin',
  'PATCH /campaign/:campaignId': 'admin',
  'POST /campaign/:campaignId/deploy': 'admin',
  'DELETE /campaign/:campaignId': 'admin',
  'POST /outbound/:campaignId': 'admin',
  'POST /campaign/:campaignId/pause': 'admin',
  'POST /campaign/:campaignId/resume': 'admin',
  'POST /campaign/:campaignId/cancel-schedule': 'admin',
  'POST /campaign/:campaignId/trigger-key': 'admin',
  'POST /campaign/:campaignId/retarget': 'admin',
  'PATCH /workspace/:workspaceId/campaign-settings': 'admin',
  'PATCH /workspace/:workspaceId/bot-settings': 'admin',
  'POST /workspace/:workspaceId/rate-card': 'admin',

  // ---- templates (README: create, upload media, delete: admins; pulling them from WhatsApp writes them too) ----
  'POST /whatsapp-template': 'admin',
  'POST /whatsapp-template/upload-media': 'admin',
  'DELETE /whatsapp-template/:templateId': 'admin',
  'POST /workspace/:workspaceId/whatsapp-templates/sync': 'admin',

  // ---- settings (README: WhatsApp accounts, attributes: admins) ----
  'POST /whatsapp': 'admin',
  'GET /workspace/:workspaceId/whatsapp-webhook': 'admin',
  'PATCH /whatsapp/:id': 'admin',
  'DELETE /whatsapp/:id': 'admin',
  'POST /whatsapp/:id/health': 'admin',
  'GET /workspace/:workspaceId/contacts/export.csv': 'admin',
  'DELETE /contact/:contactId': 'admin',
  'POST /contact': 'agent',
  'GET /workspace/:workspaceId/contacts/count': 'agent',
  'POST /contact/:contactId/template-message': 'agent',
  'POST /attribute': 'admin',
  'PATCH /attribute/:attributeId': 'admin',
  'DELETE /attribute/:attributeId': 'admin',

  // ---- members (README: invite, revoke, list open invitations, change a role, remove a member: admins) ----
  'POST /invitee': 'admin',
  'DELETE /invitee/:id': 'admin',
  'GET /workspace/:workspaceId/invitees': 'admin',
  'PATCH /workspace/:workspaceId/members/:memberId': 'admin',
  'DELETE /workspace/:workspaceId/members/:memberId': 'admin',
};

export function callKey(method: string, path: string): string {
  return `${method} ${path}`;
}

/** Who may make a call; throws, naming the call and what to do, when the matrix does not list it. */
export function whoMayCall(method: string, path: string, routeName?: string): Who {
  const who = roleMatrix[callKey(method, path)];
  if (who) return who;
  throw new Error(
    `Route ${callKey(method, path)}${routeName ? ` (${routeName})` : ''} is in src/shared/api/routes.ts but not in the role ` +
      `matrix tests/support/role-matrix.ts: add who may call it there, decided from the README's Roles section ` +
      `(see "HOW TO ADD A ROUTE" at the top of that file).`,
  );
}

/** What the route table's access says, in the matrix's words. */
export function whoOfAccess(access: { kind: string; role?: string }): Who {
  if (access.kind === 'public' || access.kind === 'signedIn') return access.kind;
  if (access.role === 'admin' || access.role === 'agent') return access.role;
  throw new Error(`unknown access ${JSON.stringify(access)}`);
}
