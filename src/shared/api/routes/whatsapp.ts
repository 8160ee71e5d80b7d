// Routes of connected WhatsApp numbers and their Flows; an addition: the webhook setup to give Meta.
import * as z from '../../zod';
import { Success } from '../../schemas/common';
import { WhatsappAccount, WhatsappFlow } from '../../schemas/entities';
import { CreateWhatsappBody, PatchWhatsappBody } from '../../schemas/requests';
import { WebhookSetup } from '../../schemas/whatsapp-setup';
import { adminIn, agentIn, pathParams, route, wsBody, wsParams } from './define';

export const whatsappRoutes = {
  createWhatsappAccount: route({
    method: 'POST', path: '/whatsapp', tag: 'whatsapp', summary: 'Connect a WhatsApp number (credentials checked with the Graph API)',
    body: CreateWhatsappBody, status: 201, response: WhatsappAccount, access: wsBody('admin'),
  }),
  patchWhatsappAccount: route({
    method: 'PATCH', path: '/whatsapp/:id', tag: 'whatsapp', summary: 'Replace the token of a connected number (checked with the Graph API) or set its throughputPerSecond',
    params: pathParams.id, body: PatchWhatsappBody, status: 200, response: WhatsappAccount, access: adminIn('whatsappAccount', 'id'), addition: true,
  }),
  refreshWhatsappHealth: route({
    method: 'POST', path: '/whatsapp/:id/health', tag: 'whatsapp',
    summary: "Read the number's quality rating, messaging-limit tier and throughput level from the Graph API now, store and answer them",
    params: pathParams.id, body: z.strictObject({}).optional(), status: 200, response: WhatsappAccount, access: adminIn('whatsappAccount', 'id'), addition: true,
  }),
  deleteWhatsappAccount: route({
    method: 'DELETE', path: '/whatsapp/:id', tag: 'whatsapp', summary: 'Disconnect a WhatsApp number',
    params: pathParams.id, status: 200, response: Success, access: adminIn('whatsappAccount', 'id'),
  }),
  listWhatsappFlows: route({
    method: 'GET', path: '/whatsapp-flow/:whatsappAccountId', tag: 'whatsapp', summary: 'WhatsApp Flows of the account',
    params: pathParams.whatsappAccount, status: 200, response: z.array(WhatsappFlow), access: agentIn('whatsappAccount', 'whatsappAccountId'),
  }),
} as const;

export const webhookSetupRoutes = {
  getWebhookSetup: route({
    method: 'GET', path: '/workspace/:workspaceId/whatsapp-webhook', tag: 'whatsapp',
    summary: "The webhook callback URL and verify token to give Meta (admins), and when Meta's verification call last reached the server",
    params: pathParams.workspace, status: 200, response: WebhookSetup, access: wsParams('admin'), addition: true,
  }),
} as const;
