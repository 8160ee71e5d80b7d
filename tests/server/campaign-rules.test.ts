/**
 * Pure rules of campaigns: send windows in each recipient's time zone (items 8), and the shared
 * validator that deploy and the editor's summary both use (item 2).
 */
import { describe, expect, it } from 'vitest';
import { validateCampaign } from '../../src/shared/campaign-validation';
import { CampaignDraftRfInstance, CampaignRfInstance } from '../../src/shared/schemas/campaign-canvas';
import { nextSendTime, recipientTimeZone } from '../../src/server/campaigns/send-window';

const window = { start: '09:00', end: '20:00' };

describe('send windows', () => {
  it('lets a send inside the window go at once', () => {
    const due = new Date('2026-03-10T14:30:00Z'); // 15:30 in Paris
    expect(nextSendTime(due, window, 'Europe/Paris')).toEqual(due);
  });

  it("moves a send due at night to the window's next start in the recipient's zone", () => {
    const due = new Date('2026-03-10T21:30:00Z'); // 22:30 in Paris
    expect(nextSendTime(due, window, 'Europe/Paris').toISOString()).toBe('2026-03-11T08:00:00.000Z');
    // The same instant is 17:30 in New York: inside its window.
    expect(nextSendTime(due, window, 'America/New_York')).toEqual(due);
  });

  it('is right across a daylight-saving change and for a window spanning midnight', () => {
    // Paris goes to summer time on 2026-03-29 at 02:00: 09:00 local is then 07:00 UTC.
    expect(nextSendTime(new Date('2026-03-28T22:00:00Z'), window, 'Europe/Paris').toISOString()).toBe('2026-03-29T07:00:00.000Z');
    const night = { start: '22:00', end: '06:00' };
    expect(nextSendTime(new Date('2026-03-10T23:30:00Z'), night, 'UTC').toISOString()).toBe('2026-03-10T23:30:00.000Z');
    expect(nextSendTime(new Date('2026-03-10T12:00:00Z'), night, 'UTC').toISOString()).toBe('2026-03-10T22:00:00.000Z');
  });

  it("takes the recipient's zone from its attribute, else its phone number's area, else the workspace's", async () => {
    expect(await recipientTimeZone({ phoneNumber: '+33612345678', attributes: { timeZone: 'Asia/Tokyo' } }, 'UTC')).toBe('Asia/Tokyo');
    expect(await recipientTimeZone({ phoneNumber: '+33612345678', attributes: {} }, 'UTC')).toBe('Europe/Paris');
    expect(await recipientTimeZone({ phoneNumber: '+97699112233', attributes: { timeZone: 'Not/AZone' } }, 'Asia/Ulaanbaatar')).toBe('Asia/Ulaanbaatar');
  });
});

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const template = { id: 'tpl', name: 'promo', status: 'APPROVED', whatsappAccountId: 'acc', components: [{ type: 'BODY', text: 'Hi {{1}}' }] };
const ctx = { segmentIds: ['seg'], whatsappAccountIds: ['acc'], templates: [template], attributeIds: ['attr'] };

describe('validateCampaign', () => {
  it('accepts a complete chain and names each problem with its node otherwise', () => {
    const good = {
      nodes: [
        node('t', 'OneTimeTriggerNode', { label: '', segmentId: 'seg' }),
        node('s', 'SendWhatsappNode', { label: '', whatsappAccountId: 'acc', whatsappTemplateId: 'tpl', variables: [{ id: 'v', component: 'BODY', variable: '1', source: 'attribute', value: 'attr' }] }),
      ],
      edges: [{ source: 't', target: 's' }],
    };
    expect(validateCampaign('oneTime', good, ctx)).toEqual([]);
    expect(validateCampaign('recurring', good, ctx)).toEqual(
      expect.arrayContaining([{ nodeId: 't', message: 'A recurring campaign starts with a recurring trigger' }, { nodeId: null, message: 'Add a trigger: a campaign starts with exactly one trigger' }]),
    );
    const paused = { ...template, status: 'PAUSED' };
    expect(validateCampaign('oneTime', good, { ...ctx, templates: [paused] })).toEqual([{ nodeId: 's', message: 'Template promo is PAUSED; only approved templates can be sent' }]);
    const loop = { ...good, nodes: [...good.nodes, node('d', 'DelayNode', { label: '', waitFor: 2, waitForUnit: 'hours' })], edges: [...good.edges, { source: 's', target: 'd' }, { source: 'd', target: 's' }] };
    expect(validateCampaign('oneTime', loop, ctx).map((p) => p.message)).toEqual(expect.arrayContaining(['A step can follow one step only']));
  });

  it('asks a send of a media-header template for a link unless the template stores its media', () => {
    const media = { ...template, mediaUrl: null, components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'New in store' }] };
    const rf = (headerMediaLink?: string) => ({
      nodes: [
        node('t', 'OneTimeTriggerNode', { label: '', segmentId: 'seg' }),
        node('s', 'SendWhatsappNode', { label: '', whatsappAccountId: 'acc', whatsappTemplateId: 'tpl', variables: [], headerMediaLink }),
      ],
      edges: [{ source: 't', target: 's' }],
    });
    expect(validateCampaign('oneTime', rf(), { ...ctx, templates: [media] })).toEqual([{ nodeId: 's', message: "Give a link to the image of the template's header" }]);
    expect(validateCampaign('oneTime', rf('https://cdn.example.com/a.jpg'), { ...ctx, templates: [media] })).toEqual([]);
    expect(validateCampaign('oneTime', rf('/files/w1/template-media/a.jpg'), { ...ctx, templates: [media] })).toEqual([]);
    expect(validateCampaign('oneTime', rf('javascript:alert(1)'), { ...ctx, templates: [media] })).toEqual([
      { nodeId: 's', message: 'The header media link must be an http(s) address or a file uploaded to this workspace' },
    ]);
    expect(validateCampaign('oneTime', rf(), { ...ctx, templates: [{ ...media, mediaUrl: 'https://cdn.example.com/stored.jpg' }] })).toEqual([]);
  });

  it('lets a draft save unfinished nodes while the strict schema still refuses them', () => {
    const draft = { nodes: [node('s', 'SendWhatsappNode', { label: 'Send' }), node('d', 'DelayNode', { label: 'Wait' })], edges: [] };
    expect(CampaignDraftRfInstance.safeParse(draft).success).toBe(true);
    expect(CampaignRfInstance.safeParse(draft).success).toBe(false);
  });
});
