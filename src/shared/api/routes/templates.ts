// Routes of WhatsApp message templates.
import * as z from '../../zod';
import { Success } from '../../schemas/common';
import { WhatsappTemplate } from '../../schemas/entities';
import { CreateTemplateBody } from '../../schemas/requests';
import { adminIn, MB, pathParams, route, wsBody, wsParams } from './define';

export const templateRoutes = {
  createTemplate: route({
    method: 'POST', path: '/whatsapp-template', tag: 'template', summary: 'Submit a message template to WhatsApp for review',
    body: CreateTemplateBody, status: 201, response: WhatsappTemplate, access: wsBody('admin'),
  }),
  syncTemplates: route({
    method: 'POST', path: '/workspace/:workspaceId/whatsapp-templates/sync', tag: 'template',
    summary: "Pull the templates of the workspace's WhatsApp numbers from WhatsApp: update statuses, add templates made elsewhere",
    params: pathParams.workspace, body: z.strictObject({}).optional(), status: 200,
    response: z.object({ updated: z.number().int(), imported: z.number().int() }), access: wsParams('admin'), addition: true,
  }),
  uploadTemplateMedia: route({
    method: 'POST', path: '/whatsapp-template/upload-media', tag: 'template', summary: 'Upload a template header sample',
    multipart: { field: 'file', maxBytes: 16 * MB, mimeTypes: ['image/jpeg', 'image/png', 'video/mp4', 'application/pdf'] },
    status: 201, response: z.object({ assetUrl: z.string(), FBhandle: z.string() }), access: { kind: 'currentWorkspace', role: 'admin' },
  }),
  deleteTemplate: route({
    method: 'DELETE', path: '/whatsapp-template/:templateId', tag: 'template', summary: 'Delete a template here and at WhatsApp',
    params: pathParams.template, status: 200, response: Success, access: adminIn('whatsappTemplate', 'templateId'),
  }),
} as const;
