/**
 * The campaign runner's pure rules beyond campaign-rules.test.ts (the `campaigns` part of the
 * mutation score, milliseconds per mutant): send windows at their edges and the recipient's zone, trigger keys
 * (what a request carries, the hash, the hint) and the per-key rate limit of trigger calls.
 */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { timezones } from 'libphonenumber-geo-carrier';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { phoneAreaZones } from '../../src/server/campaigns/phone-time-zones';
import { isTimeZone, nextSendTime, pickZone, recipientTimeZone } from '../../src/server/campaigns/send-window';
import { createKeyRateLimiter, hashTriggerKey, keyHint, newTriggerKey, triggerKeyOf } from '../../src/server/campaigns/trigger-keys';

const at = (iso: string) => new Date(iso);
const window = { start: '09:00', end: '20:00' };

describe('send windows at their edges', () => {
  it('sends at the first minute of the window and holds the minute it ends', () => {
    expect(nextSendTime(at('2026-03-10T09:00:00Z'), window, 'UTC')).toEqual(at('2026-03-10T09:00:00Z'));
    expect(nextSendTime(at('2026-03-10T19:59:59Z'), window, 'UTC')).toEqual(at('2026-03-10T19:59:59Z'));
    expect(nextSendTime(at('2026-03-10T20:00:00Z'), window, 'UTC').toISOString()).toBe('2026-03-11T09:00:00.000Z');
    expect(nextSendTime(at('2026-03-10T08:59:30Z'), window, 'UTC').toISOString()).toBe('2026-03-10T09:00:00.000Z');
  });

  it('lets a send due in the first minute of the window go at its own instant, seconds kept', () => {
    // The window's start minute is open: a send due then is not moved to that minute's start (nor anywhere).
    expect(nextSendTime(at('2026-03-10T09:00:30.250Z'), window, 'UTC')).toEqual(at('2026-03-10T09:00:30.250Z'));
    expect(nextSendTime(at('2026-03-10T22:00:45Z'), { start: '22:00', end: '06:00' }, 'UTC')).toEqual(at('2026-03-10T22:00:45Z'));
  });

  it('answers on the night the clocks skip the start of the window: the first minute the window holds', () => {
    // Paris skips 02:00-03:00 on 2026-03-29: 02:30 never shows on the local clock. The send goes at 03:00 local
    // (01:00Z), inside the window; it once went at 01:30 local, in the quiet hours.
    const due = at('2026-03-28T23:00:00Z');
    expect(nextSendTime(due, { start: '02:30', end: '05:00' }, 'Europe/Paris').toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(nextSendTime(due, { start: '02:00', end: '05:00' }, 'Europe/Paris').toISOString()).toBe('2026-03-29T01:00:00.000Z');
    // asked again at the instant it once answered (01:30 local), the same 03:00
    expect(nextSendTime(at('2026-03-29T00:30:00Z'), { start: '02:30', end: '05:00' }, 'Europe/Paris').toISOString()).toBe('2026-03-29T01:00:00.000Z');
    // New York skips 02:00-03:00 on 2026-03-08
    expect(nextSendTime(at('2026-03-08T05:00:00Z'), { start: '02:15', end: '04:00' }, 'America/New_York').toISOString()).toBe('2026-03-08T07:00:00.000Z');
    // a window wholly inside the skipped hour does not exist that night: the next night's start
    expect(nextSendTime(due, { start: '02:10', end: '02:40' }, 'Europe/Paris').toISOString()).toBe('2026-03-30T00:10:00.000Z');
  });

  it('moves a held send to the start minute exactly, seconds dropped', () => {
    expect(nextSendTime(at('2026-03-10T05:17:42.123Z'), window, 'UTC').toISOString()).toBe('2026-03-10T09:00:00.000Z');
    expect(nextSendTime(at('2026-03-10T23:01:00Z'), { start: '00:30', end: '06:00' }, 'UTC').toISOString()).toBe('2026-03-11T00:30:00.000Z');
  });

  it('sends at once without a window, or with a window that never closes', () => {
    const due = at('2026-03-10T03:00:00Z');
    expect(nextSendTime(due, null, 'UTC')).toBe(due);
    expect(nextSendTime(due, undefined, 'UTC')).toBe(due);
    expect(nextSendTime(due, { start: '07:00', end: '07:00' }, 'UTC')).toEqual(due);
  });

  it('a window across midnight: open before and after midnight, closed in the day', () => {
    const night = { start: '22:00', end: '06:00' };
    expect(nextSendTime(at('2026-03-10T22:00:00Z'), night, 'UTC')).toEqual(at('2026-03-10T22:00:00Z'));
    expect(nextSendTime(at('2026-03-11T05:59:00Z'), night, 'UTC')).toEqual(at('2026-03-11T05:59:00Z'));
    expect(nextSendTime(at('2026-03-11T06:00:00Z'), night, 'UTC').toISOString()).toBe('2026-03-11T22:00:00.000Z');
  });

  it('reads the hours and minutes of the window in the recipient\'s zone', () => {
    // 09:45 in Kolkata (UTC+05:30) is 04:15 UTC
    const w = { start: '09:45', end: '18:15' };
    expect(nextSendTime(at('2026-03-10T02:00:00Z'), w, 'Asia/Kolkata').toISOString()).toBe('2026-03-10T04:15:00.000Z');
    expect(nextSendTime(at('2026-03-10T12:44:00Z'), w, 'Asia/Kolkata')).toEqual(at('2026-03-10T12:44:00Z'));
    expect(nextSendTime(at('2026-03-10T12:45:00Z'), w, 'Asia/Kolkata').toISOString()).toBe('2026-03-11T04:15:00.000Z');
  });

  it('finds the start on the day the clocks go back, and on the day they go forward in New York', () => {
    // London goes back to winter time on 2026-10-25 at 02:00 (BST, UTC+1, to GMT): 09:00 is then 09:00 UTC
    expect(nextSendTime(at('2026-10-24T21:00:00Z'), window, 'Europe/London').toISOString()).toBe('2026-10-25T09:00:00.000Z');
    // New York springs forward on 2026-03-08: 09:00 EDT is 13:00 UTC
    expect(nextSendTime(at('2026-03-08T03:00:00Z'), window, 'America/New_York').toISOString()).toBe('2026-03-08T13:00:00.000Z');
  });
});

describe('the recipient\'s time zone', () => {
  it('takes the attribute in any of its spellings, if it is a zone', async () => {
    const phone = '+33612345678';
    expect(await recipientTimeZone({ phoneNumber: phone, attributes: { timezone: 'Asia/Tokyo' } }, 'UTC')).toBe('Asia/Tokyo');
    expect(await recipientTimeZone({ phoneNumber: phone, attributes: { time_zone: 'America/Lima' } }, 'UTC')).toBe('America/Lima');
    expect(await recipientTimeZone({ phoneNumber: phone, attributes: { timeZone: 'Asia/Tokyo', timezone: 'America/Lima' } }, 'UTC')).toBe('Asia/Tokyo');
    // an invalid value is ignored: the number's area decides
    expect(await recipientTimeZone({ phoneNumber: phone, attributes: { timeZone: 42 } }, 'UTC')).toBe('Europe/Paris');
    expect(await recipientTimeZone({ phoneNumber: phone, attributes: { timeZone: '' } }, 'UTC')).toBe('Europe/Paris');
    expect(await recipientTimeZone({ phoneNumber: '+14155550123', attributes: { timeZone: 'Pacific/Nowhere' } }, 'UTC')).toBe('America/Los_Angeles');
  });

  it("else its number's area (a country's several zones told apart), else the workspace's zone", async () => {
    expect(await recipientTimeZone({ phoneNumber: '+14155550123', attributes: {} }, 'UTC')).toBe('America/Los_Angeles');
    expect(await recipientTimeZone({ phoneNumber: '+12125550123', attributes: {} }, 'UTC')).toBe('America/New_York');
    expect(await recipientTimeZone({ phoneNumber: '+13125550123', attributes: {} }, 'UTC')).toBe('America/Chicago');
    expect(await recipientTimeZone({ phoneNumber: '+3545512340', attributes: {} }, 'UTC')).toBe('Atlantic/Reykjavik');
    expect(await recipientTimeZone({ phoneNumber: 'not a number', attributes: {} }, 'Europe/Oslo')).toBe('Europe/Oslo');
    expect(await recipientTimeZone({ phoneNumber: '+99912', attributes: {} }, 'Europe/Oslo')).toBe('Europe/Oslo');
    // known by a user id only
    expect(await recipientTimeZone({ phoneNumber: null, attributes: {} }, 'Europe/Oslo')).toBe('Europe/Oslo');
  });

  it('an area of several zones: the workspace\'s when among them, else the first', async () => {
    // +1 800 is toll-free across the whole plan (America/Adak ... Pacific/Saipan)
    expect(await recipientTimeZone({ phoneNumber: '+18005550123', attributes: {} }, 'America/Denver')).toBe('America/Denver');
    expect(await recipientTimeZone({ phoneNumber: '+18005550123', attributes: {} }, 'Asia/Tokyo')).toBe('America/Adak');
    expect(pickZone(['Not/AZone', 'Europe/London'], 'UTC')).toBe('Europe/London');
    expect(pickZone(['Not/AZone'], 'UTC')).toBeNull();
  });

  it("looks numbers up as the package's timezones() does, from a table read once", async () => {
    const numbers = ['+14155550123', '+12085550123', '+12089950123', '+18005550123', '+447700900123', '+5511987654321', '+79161234567', '+6281234567890', '+97699112233', '+3545512340'];
    for (const n of numbers) expect(await phoneAreaZones(n), n).toEqual(await timezones(parsePhoneNumberFromString(n)));
    expect(await phoneAreaZones('+99912')).toEqual([]);
  });

  it('isTimeZone accepts IANA zones only', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    for (const v of ['', 'Mars/Olympus', 7, null, undefined, {}]) expect(isTimeZone(v), String(v)).toBe(false);
  });
});

// The default comes from a `const` table, so the parameter's inferred type is the literal 100: widen it for the tests.
const limiter = createKeyRateLimiter as (max?: number, windowMs?: number) => ReturnType<typeof createKeyRateLimiter>;

const req = (headers: Record<string, unknown>) => ({ headers }) as unknown as FastifyRequest;

describe('trigger keys', () => {
  it('are pk_ and 32 url-safe characters, a new one each time; only a hint of four is shown again', () => {
    const a = newTriggerKey();
    const b = newTriggerKey();
    expect(a).toMatch(/^pk_[A-Za-z0-9_-]{32}$/);
    expect(a).not.toBe(b);
    expect(keyHint('pk_abcdefgh1234')).toBe('1234');
  });

  it('are stored as their sha256 in hex', () => {
    expect(hashTriggerKey('pk_test')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashTriggerKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('are read from X-Parley-Key (trimmed) or a Bearer token that is a key, and nothing else', () => {
    expect(triggerKeyOf(req({ 'x-parley-key': 'pk_one ' }))).toBe('pk_one');
    expect(triggerKeyOf(req({ authorization: 'Bearer pk_two' }))).toBe('pk_two');
    expect(triggerKeyOf(req({ authorization: 'bearer   pk_three' }))).toBe('pk_three');
    expect(triggerKeyOf(req({ 'x-parley-key': 'pk_header', authorization: 'Bearer pk_bearer' }))).toBe('pk_header');
    expect(triggerKeyOf(req({ 'x-parley-key': 'other', authorization: 'Bearer pk_bearer' }))).toBe('pk_bearer');
    for (const headers of [
      {},
      { 'x-parley-key': 'sk_nope' },
      { 'x-parley-key': ' pk_leading-space' },
      { 'x-parley-key': ['pk_array'] },
      { authorization: 'Bearer eyJhbGciOi.id.token' },
      { authorization: 'Basic pk_basic' },
      { authorization: 'Bearer pk_a pk_b' },
      { authorization: 'xBearer pk_x' },
    ]) {
      expect(triggerKeyOf(req(headers)), JSON.stringify(headers)).toBeNull();
    }
  });
});

describe('the trigger-call rate limit per key', () => {
  it('lets max calls through in any 10 seconds, then answers the whole seconds to wait', () => {
    const limit = limiter(3, 10_000);
    const t0 = 1_000_000;
    expect([limit('k', t0), limit('k', t0 + 1000), limit('k', t0 + 2000)]).toEqual([0, 0, 0]);
    expect(limit('k', t0 + 2500)).toBe(8); // the first call leaves the window at t0 + 10 s: 7.5 s, rounded up
    expect(limit('k', t0 + 9999)).toBe(1);
    // another key has its own window
    expect(limit('other', t0 + 2500)).toBe(0);
    // the first call has left the window: one more goes
    expect(limit('k', t0 + 10_000)).toBe(0);
    expect(limit('k', t0 + 10_001)).toBe(1);
  });

  it('counts calls by when they arrived, also when an earlier arrival is counted later', () => {
    const limit = limiter(2, 10_000);
    expect(limit('k', 5_000)).toBe(0);
    expect(limit('k', 1_000)).toBe(0); // arrived first, its key's look-up finished second
    expect(limit('k', 3_000)).toBe(8); // the oldest (1 s) leaves the window at 11 s
    expect(limit('k', 11_001)).toBe(0);
    expect(limit('k', 11_002)).toBe(4); // now 5 s and 11.001 s are in the window: the 5 s call leaves at 15 s
  });

  it('answers at least one second, and refused calls do not count', () => {
    const limit = limiter(1, 10_000);
    expect(limit('k', 0)).toBe(0);
    expect(limit('k', 9_999.5)).toBe(1);
    for (let i = 0; i < 5; i++) expect(limit('k', 5000)).toBe(5);
    expect(limit('k', 10_000)).toBe(0);
  });

  it('defaults to the product limit of 100 calls per 10 seconds', () => {
    const limit = createKeyRateLimiter();
    for (let i = 0; i < 100; i++) expect(limit('k', 1000 + i)).toBe(0);
    expect(limit('k', 1100)).toBe(10);
    expect(limit('k', 11_000)).toBe(0);
  });
});
