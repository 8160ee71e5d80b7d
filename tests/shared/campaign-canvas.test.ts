import { describe, it, expect } from 'vitest';
import {
  CampaignNode,
  CampaignRfInstance,
  DelayNode,
  OneTimeTriggerNode,
  SendWhatsappNode,
  delayUnits,
  messages,
} from '../../src/shared';
import { expectFail, expectMessages, expectOk } from './helpers';
import { campaignNodeTypes } from '../support/contract-helpers';

const pos = { x: 0, y: 0 };
const fixtures = {
  OneTimeTriggerNode: { id: 't1', type: 'OneTimeTriggerNode', position: pos, data: { label: 'Trigger', segmentId: 'seg-1' } },
  RecurringTriggerNode: {
    id: 't2',
    type: 'RecurringTriggerNode',
    position: pos,
    data: { label: 'Trigger', attributeMapping: [{ id: 'm1', objectKey: 'phone', attributeId: 'attr-1' }] },
  },
  SendWhatsappNode: {
    id: 's1',
    type: 'SendWhatsappNode',
    position: { x: 0, y: 120 },
    data: { label: 'Send', whatsappAccountId: 'wa-1', whatsappTemplateId: 'tpl-1' },
  },
  DelayNode: { id: 'd1', type: 'DelayNode', position: { x: 0, y: 240 }, data: { label: 'Wait', waitFor: 2, waitForUnit: 'hours' } },
} as const;

describe('campaign canvas nodes', () => {
  it('has exactly the 4 node kinds of the spec, each covered by a fixture', () => {
    expect(campaignNodeTypes).toHaveLength(4);
    expect([...campaignNodeTypes].sort()).toEqual(Object.keys(fixtures).sort());
  });

  it.each(Object.entries(fixtures))('parses a minimal %s', (type, node) => {
    const r = CampaignNode.safeParse(node);
    expect(r.success).toBe(true);
    expect(r.success && r.data.type).toBe(type);
  });

  it('refuses an unknown node kind', () => {
    expectFail(CampaignNode, { ...fixtures.DelayNode, type: 'StartNode' });
  });

  describe('OneTimeTriggerNode needs a segment', () => {
    it('missing segmentId -> Select audience segment!', () => {
      expectMessages(OneTimeTriggerNode, { ...fixtures.OneTimeTriggerNode, data: { label: 'Trigger' } }, [messages.selectSegment]);
    });
    it('empty segmentId -> Select audience segment!', () => {
      expectMessages(OneTimeTriggerNode, { ...fixtures.OneTimeTriggerNode, data: { label: 'Trigger', segmentId: '' } }, [
        messages.selectSegment,
      ]);
    });
    it('uses the exact spec message', () => {
      expect(messages.selectSegment).toBe('Select audience segment!');
    });
  });

  describe('SendWhatsappNode needs account and template', () => {
    it.each(['whatsappAccountId', 'whatsappTemplateId'])('missing %s -> This field cannot be empty', (field) => {
      const data: Record<string, unknown> = { ...fixtures.SendWhatsappNode.data };
      delete data[field];
      expectMessages(SendWhatsappNode, { ...fixtures.SendWhatsappNode, data }, [messages.fieldEmpty]);
    });
    it.each(['whatsappAccountId', 'whatsappTemplateId'])('empty %s -> This field cannot be empty', (field) => {
      expectMessages(SendWhatsappNode, { ...fixtures.SendWhatsappNode, data: { ...fixtures.SendWhatsappNode.data, [field]: '' } }, [
        messages.fieldEmpty,
      ]);
    });
    it('both missing -> the message twice', () => {
      expectMessages(SendWhatsappNode, { ...fixtures.SendWhatsappNode, data: { label: 'Send' } }, [messages.fieldEmpty, messages.fieldEmpty]);
    });
    it('uses the exact spec message', () => {
      expect(messages.fieldEmpty).toBe('This field cannot be empty');
    });
  });

  describe('DelayNode units hours or days', () => {
    it('delayUnits are hours and days', () => {
      expect([...delayUnits]).toEqual(['hours', 'days']);
    });
    it.each(['hours', 'days'])('accepts %s', (waitForUnit) => {
      expectOk(DelayNode, { ...fixtures.DelayNode, data: { ...fixtures.DelayNode.data, waitForUnit } });
    });
    it.each(['minutes', 'weeks', 'seconds', 'Hours', ''])('refuses %j', (waitForUnit) => {
      expectFail(DelayNode, { ...fixtures.DelayNode, data: { ...fixtures.DelayNode.data, waitForUnit } });
    });
    it('refuses a non-numeric waitFor', () => {
      expectFail(DelayNode, { ...fixtures.DelayNode, data: { ...fixtures.DelayNode.data, waitFor: '2' } });
    });
  });
});

describe('CampaignRfInstance', () => {
  const edge = (id: string, source: string, target: string) => ({ id, source, target });

  it('accepts a one-time campaign: trigger -> send -> delay -> send', () => {
    const send2 = { ...fixtures.SendWhatsappNode, id: 's2' };
    expectOk(CampaignRfInstance, {
      nodes: [fixtures.OneTimeTriggerNode, fixtures.SendWhatsappNode, fixtures.DelayNode, send2],
      edges: [edge('e1', 't1', 's1'), edge('e2', 's1', 'd1'), edge('e3', 'd1', 's2')],
      viewport: { x: 0, y: 0, zoom: 1 },
    });
  });

  it('accepts at most one trigger and refuses two', () => {
    expectOk(CampaignRfInstance, { nodes: [fixtures.RecurringTriggerNode], edges: [] });
    expectFail(CampaignRfInstance, { nodes: [fixtures.OneTimeTriggerNode, fixtures.RecurringTriggerNode], edges: [] });
    expectFail(CampaignRfInstance, {
      nodes: [fixtures.OneTimeTriggerNode, { ...fixtures.OneTimeTriggerNode, id: 't3' }],
      edges: [],
    });
  });

  it('refuses an edge to a missing node and duplicate node ids', () => {
    expectFail(CampaignRfInstance, { nodes: [fixtures.OneTimeTriggerNode], edges: [edge('e1', 't1', 'nope')] });
    expectFail(CampaignRfInstance, { nodes: [fixtures.SendWhatsappNode, fixtures.SendWhatsappNode], edges: [] });
  });

  it('refuses a trigger without segment inside a canvas with the spec message', () => {
    expectMessages(
      CampaignRfInstance,
      { nodes: [{ ...fixtures.OneTimeTriggerNode, data: { label: 'Trigger' } }], edges: [] },
      [messages.selectSegment],
    );
  });
});
