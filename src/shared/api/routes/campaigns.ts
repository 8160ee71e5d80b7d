// Routes of a campaign: its canvas, deploying and the outbound trigger; additions: pausing, schedules, results,
// logs, the trigger key, retargeting, and the workspace's campaign settings.
import * as z from '../../zod';
import { pageOf, Success } from '../../schemas/common';
import {
  Campaign,
  CampaignLogEntry,
  CampaignResults,
  CampaignSettings,
  CampaignTriggerKey,
  DeployCampaignResult,
  OutboundResult,
} from '../../schemas/entities';
import {
  CampaignLogsExportQuery,
  CampaignLogsQuery,
  CampaignSettingsBody,
  CreateCampaignBody,
  DeployCampaignBody,
  OutboundBody,
  PatchCampaignBody,
  PauseCampaignBody,
  RetargetCampaignBody,
} from '../../schemas/requests';
import { adminIn, agentIn, pathParams, route, wsBody, wsParams } from './define';

export const campaignRoutes = {
  getCampaign: route({
    method: 'GET', path: '/campaign/:campaignId', tag: 'campaign', summary: 'A campaign with its canvas',
    params: pathParams.campaign, status: 200, response: Campaign, access: agentIn('campaign', 'campaignId'),
  }),
  createCampaign: route({
    method: 'POST', path: '/campaign', tag: 'campaign', summary: 'Create a one-time or recurring campaign (draft)',
    body: CreateCampaignBody, status: 201, response: Campaign, access: wsBody('admin'),
  }),
  deployCampaign: route({
    method: 'POST', path: '/campaign/:campaignId/deploy', tag: 'campaign',
    summary: 'Start sending a campaign (400 lists every problem of its canvas); addition: startAt schedules a one-time campaign',
    params: pathParams.campaign, body: DeployCampaignBody.optional(), status: 200, response: DeployCampaignResult, access: adminIn('campaign', 'campaignId'),
  }),
  patchCampaign: route({
    method: 'PATCH', path: '/campaign/:campaignId', tag: 'campaign', summary: 'Update name or canvas',
    params: pathParams.campaign, body: PatchCampaignBody, status: 200, response: Campaign, access: adminIn('campaign', 'campaignId'),
  }),
  deleteCampaign: route({
    method: 'DELETE', path: '/campaign/:campaignId', tag: 'campaign', summary: 'Delete a campaign',
    params: pathParams.campaign, status: 200, response: Success, access: adminIn('campaign', 'campaignId'),
  }),
  triggerOutbound: route({
    method: 'POST', path: '/outbound/:campaignId', tag: 'campaign',
    summary: "Trigger a recurring campaign for a list of records (an admin's token or the campaign's trigger key; per-record results are an addition)",
    params: pathParams.campaign, body: OutboundBody, status: 200, response: OutboundResult,
    access: { kind: 'campaignKey', resource: 'campaign', in: 'params', field: 'campaignId', role: 'admin' },
  }),
  // additions
  pauseCampaign: route({
    method: 'POST', path: '/campaign/:campaignId/pause', tag: 'campaign', summary: 'Pause a running campaign (resumeAt resumes it then)',
    params: pathParams.campaign, body: PauseCampaignBody.optional(), status: 200, response: Campaign, access: adminIn('campaign', 'campaignId'), addition: true,
  }),
  resumeCampaign: route({
    method: 'POST', path: '/campaign/:campaignId/resume', tag: 'campaign', summary: 'Resume a paused campaign',
    params: pathParams.campaign, body: z.strictObject({}).optional(), status: 200, response: Campaign, access: adminIn('campaign', 'campaignId'), addition: true,
  }),
  cancelCampaignSchedule: route({
    method: 'POST', path: '/campaign/:campaignId/cancel-schedule', tag: 'campaign', summary: 'Cancel the scheduled start of a campaign (back to draft)',
    params: pathParams.campaign, body: z.strictObject({}).optional(), status: 200, response: Campaign, access: adminIn('campaign', 'campaignId'), addition: true,
  }),
  getCampaignResults: route({
    method: 'GET', path: '/campaign/:campaignId/results', tag: 'campaign', summary: 'Counts of a campaign and its sends over time',
    params: pathParams.campaign, status: 200, response: CampaignResults, access: agentIn('campaign', 'campaignId'), addition: true,
  }),
  listCampaignLogs: route({
    method: 'GET', path: '/campaign/:campaignId/logs', tag: 'campaign', summary: 'Log lines of a campaign, newest first, filtered by outcome',
    params: pathParams.campaign, query: CampaignLogsQuery, status: 200, response: pageOf(CampaignLogEntry), access: agentIn('campaign', 'campaignId'), addition: true,
  }),
  exportCampaignLogs: route({
    method: 'GET', path: '/campaign/:campaignId/logs.csv', tag: 'campaign',
    summary: 'The log lines of a campaign as CSV (text/csv, streamed; token also as ?token=)',
    params: pathParams.campaign, query: CampaignLogsExportQuery, status: 200, response: z.string(), access: agentIn('campaign', 'campaignId'), addition: true,
    stream: true,
  }),
  rotateCampaignTriggerKey: route({
    method: 'POST', path: '/campaign/:campaignId/trigger-key', tag: 'campaign',
    summary: 'Create or replace the trigger key of a recurring campaign (shown once; the old key stops working)',
    params: pathParams.campaign, body: z.strictObject({}).optional(), status: 201, response: CampaignTriggerKey, access: adminIn('campaign', 'campaignId'), addition: true,
  }),
  retargetCampaign: route({
    method: 'POST', path: '/campaign/:campaignId/retarget', tag: 'campaign',
    summary: 'A new one-time draft campaign for exactly the recipients of this one with an outcome',
    params: pathParams.campaign, body: RetargetCampaignBody, status: 201, response: Campaign, access: adminIn('campaign', 'campaignId'), addition: true,
  }),
  getCampaignSettings: route({
    method: 'GET', path: '/workspace/:workspaceId/campaign-settings', tag: 'campaign', summary: 'Opt-out keywords and time zone of a workspace',
    params: pathParams.workspace, status: 200, response: CampaignSettings, access: wsParams('agent'), addition: true,
  }),
  patchCampaignSettings: route({
    method: 'PATCH', path: '/workspace/:workspaceId/campaign-settings', tag: 'campaign', summary: 'Change the opt-out keywords and time zone of a workspace',
    params: pathParams.workspace, body: CampaignSettingsBody, status: 200, response: CampaignSettings, access: wsParams('admin'), addition: true,
  }),
} as const;
