// Both canvases (bots and campaigns) are saved as React Flow's `toObject()`: the node and edge keys React Flow
// adds while a canvas is edited must pass both schemas, and anything else must fail both.
import { describe, expect, it } from 'vitest';
import { BotRfInstance, CampaignRfInstance } from '../../src/shared';

/** What React Flow 12 keeps on a node after it was measured, dragged and selected. */
const asEdited = (i: number) => ({
  position: { x: 40 * i, y: 120 * i },
  measured: { width: 260, height: 96 },
  width: 260,
  height: 96,
  selected: i === 1,
  dragging: false,
  draggable: true,
  selectable: true,
  zIndex: 0,
});
const edge = (id: string, source: string, target: string) => ({
  id,
  source,
  target,
  sourceHandle: null,
  targetHandle: null,
  selected: false,
  animated: false,
  type: 'default',
});
const viewport = { x: -12.5, y: 40, zoom: 0.85 };

const botCanvas = {
  nodes: [
    { id: 'start', type: 'StartNode', data: { label: 'Start' }, deletable: false, ...asEdited(0) },
    { id: 'reply', type: 'SendMessageNode', data: { label: 'Greet', messageBlocks: [] }, ...asEdited(1) },
  ],
  edges: [{ ...edge('e1', 'start', 'reply'), sourceHandle: 'start-out' }],
  viewport,
};

const campaignCanvas = {
  nodes: [
    { id: 'trigger', type: 'OneTimeTriggerNode', data: { label: 'Trigger', segmentId: 'seg-1' }, ...asEdited(0) },
    { id: 'send', type: 'SendWhatsappNode', data: { label: 'Send', whatsappAccountId: 'wa-1', whatsappTemplateId: 'tpl-1' }, ...asEdited(1) },
    { id: 'wait', type: 'DelayNode', data: { label: 'Wait', waitFor: 2, waitForUnit: 'hours' }, ...asEdited(2) },
  ],
  edges: [edge('e1', 'trigger', 'send'), { ...edge('e2', 'send', 'wait'), targetHandle: 'in' }],
  viewport,
};

describe('a canvas saved by React Flow', () => {
  it('passes the bot schema with every React Flow key kept', () => {
    const r = BotRfInstance.safeParse(botCanvas);
    expect(r.error?.issues).toBeUndefined();
    expect(r.data?.nodes[1]).toMatchObject({ measured: { width: 260, height: 96 }, selected: true, width: 260 });
    expect(r.data?.edges[0]).toMatchObject({ sourceHandle: 'start-out', targetHandle: null });
  });

  it('passes the campaign schema with the same keys', () => {
    const r = CampaignRfInstance.safeParse(campaignCanvas);
    expect(r.error?.issues).toBeUndefined();
    expect(r.data?.nodes[2]).toMatchObject({ measured: { width: 260, height: 96 }, dragging: false, draggable: true, zIndex: 0 });
    expect(r.data?.edges[1]).toMatchObject({ sourceHandle: null, targetHandle: 'in' });
  });

  it('fails both schemas on a key React Flow does not have', () => {
    const withJunk = <T extends { nodes: object[] }>(c: T) => ({ ...c, nodes: c.nodes.map((n, i) => (i === 0 ? { ...n, onClick: 'alert(1)' } : n)) });
    expect(BotRfInstance.safeParse(withJunk(botCanvas)).success).toBe(false);
    expect(CampaignRfInstance.safeParse(withJunk(campaignCanvas)).success).toBe(false);
  });

  it('fails both schemas on a measured size that is not numbers', () => {
    const badMeasure = <T extends { nodes: object[] }>(c: T) => ({ ...c, nodes: c.nodes.map((n) => ({ ...n, measured: { width: 'wide' } })) });
    expect(BotRfInstance.safeParse(badMeasure(botCanvas)).success).toBe(false);
    expect(CampaignRfInstance.safeParse(badMeasure(campaignCanvas)).success).toBe(false);
  });

  it('fails both schemas on an edge to a node that is not there', () => {
    expect(BotRfInstance.safeParse({ ...botCanvas, edges: [edge('e9', 'start', 'ghost')] }).success).toBe(false);
    expect(CampaignRfInstance.safeParse({ ...campaignCanvas, edges: [edge('e9', 'ghost', 'send')] }).success).toBe(false);
  });
});
