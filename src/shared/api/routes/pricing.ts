// Additions: what messages cost. The workspace's rate card (Meta's prices by market) and a campaign's estimate
// before deploy; the billable messages of a campaign are in its results.
import { CampaignEstimate, RateCard, RateCardAnswer } from '../../schemas/entities';
import { UploadRateCardBody } from '../../schemas/requests';
import { agentIn, pathParams, route, wsParams } from './define';

export const pricingRoutes = {
  getRateCard: route({
    method: 'GET', path: '/workspace/:workspaceId/rate-card', tag: 'workspace', summary: "The workspace's rate card (null until an admin uploads one)",
    params: pathParams.workspace, status: 200, response: RateCardAnswer, access: wsParams('agent'), addition: true,
  }),
  uploadRateCard: route({
    method: 'POST', path: '/workspace/:workspaceId/rate-card', tag: 'workspace',
    summary: "Replace the workspace's rate card with Meta's CSV (market, currency, marketing, utility, authentication)",
    params: pathParams.workspace, body: UploadRateCardBody, status: 200, response: RateCard, access: wsParams('admin'), addition: true,
  }),
  getCampaignEstimate: route({
    method: 'GET', path: '/campaign/:campaignId/estimate', tag: 'campaign',
    summary: "What a campaign will cost by its recipients' countries, and what to know before deploying it",
    params: pathParams.campaign, status: 200, response: CampaignEstimate, access: agentIn('campaign', 'campaignId'), addition: true,
  }),
} as const;
