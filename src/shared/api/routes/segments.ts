// Routes of an audience segment.
import { Success } from '../../schemas/common';
import { Segment, SegmentPreview } from '../../schemas/entities';
import { CreateSegmentBody, SegmentPreviewBody } from '../../schemas/requests';
import { agentIn, pathParams, route, wsBody, wsParams } from './define';

export const segmentRoutes = {
  createSegment: route({
    method: 'POST', path: '/segment', tag: 'segment', summary: 'Save a segment of the audience',
    body: CreateSegmentBody, status: 201, response: Segment, access: wsBody('agent'),
  }),
  previewSegment: route({
    method: 'POST', path: '/workspace/:workspaceId/segments/preview', tag: 'segment',
    summary: 'Count and first page of the contacts that filters select, before saving them as a segment',
    params: pathParams.workspace, body: SegmentPreviewBody, status: 200, response: SegmentPreview, access: wsParams('agent'), addition: true,
  }),
  deleteSegment: route({
    method: 'DELETE', path: '/segment/:segmentId', tag: 'segment', summary: 'Delete a segment',
    params: pathParams.segment, status: 200, response: Success, access: agentIn('segment', 'segmentId'),
  }),
} as const;
