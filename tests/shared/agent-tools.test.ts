/** The shared rules of media sends (WhatsApp's types and sizes), canned-reply variables and @mentions. */
import { describe, expect, it } from 'vitest';
import { chatMediaKindOf, chatMediaProblem } from '../../src/shared/chat-media';
import { cannedReplyVariables, fillCannedReply, mentionedMembers } from '../../src/shared/canned-replies';

const MB = 1024 * 1024;

describe('media WhatsApp accepts', () => {
  it('sorts files into image, video, audio and document by type', () => {
    expect(chatMediaKindOf('image/jpeg')).toBe('image');
    expect(chatMediaKindOf('video/3gpp')).toBe('video');
    expect(chatMediaKindOf('audio/ogg; codecs=opus')).toBe('audio');
    expect(chatMediaKindOf('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')).toBe('document');
    expect(chatMediaKindOf('image/gif')).toBeNull();
  });
  it('holds each kind to its own limit and says so in words', () => {
    expect(chatMediaProblem('image/png', 5 * MB)).toBeNull();
    expect(chatMediaProblem('image/png', 5 * MB + 1)).toBe('This file is 5 MB; WhatsApp accepts images up to 5 MB.');
    expect(chatMediaProblem('video/mp4', 20 * MB)).toBe('This file is 20 MB; WhatsApp accepts videos up to 16 MB.');
    expect(chatMediaProblem('application/pdf', 99 * MB)).toBeNull();
    expect(chatMediaProblem('application/zip', 10)).toMatch(/^WhatsApp does not accept files of type application\/zip\. Send JPEG or PNG images/);
    expect(chatMediaProblem('image/png', 0)).toBe('This file is empty.');
  });
});

describe('canned reply variables', () => {
  const contact = { name: 'Grace Hopper', email: '', city: null, attributes: { Plan: 'gold', 'Order Id': 1042, vip: false } };
  it('fills contact fields and attributes (case and spacing ignored), and reports the empty ones', () => {
    const r = fillCannedReply('Hi {{name}}, {{ plan }} order {{order_id}} to {{city}} ({{email}}), vip {{vip}}, {{unknown}}', contact);
    expect(r.text).toBe('Hi Grace Hopper, gold order 1042 to {{city}} ({{email}}), vip false, {{unknown}}');
    expect(r.missing).toEqual(['city', 'email', 'unknown']);
    expect(cannedReplyVariables('{{a}} {{b}} {{a}}')).toEqual(['a', 'b']);
  });
});

describe('@mentions', () => {
  const members = [
    { id: '1', name: 'Ada' },
    { id: '2', name: 'Ada Lovelace' },
    { id: '3', name: 'Alan Turing' },
  ];
  it('finds members by their full name after @, the longest name first, not in e-mail addresses', () => {
    expect(mentionedMembers('@Ada Lovelace and @alan turing, see ada@example.com', members).map((m) => m.id)).toEqual(['2', '3']);
    expect(mentionedMembers('@Ada, please', members).map((m) => m.id)).toEqual(['1']);
    expect(mentionedMembers('@Adam', members)).toEqual([]);
  });
});
