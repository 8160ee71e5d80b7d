// The 24-hour customer-service window the server enforces on free-form sends and the composer shows.
import { describe, expect, it } from 'vitest';
import { CUSTOMER_WINDOW_MS, customerWindow } from '../../src/shared/customer-window';

const now = new Date('2026-11-23T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000);

describe('customerWindow', () => {
  it('is 24 hours long', () => {
    expect(CUSTOMER_WINDOW_MS).toBe(24 * 60 * 60 * 1000);
  });

  it('is open until 24 hours after the customer last wrote, closed from then on', () => {
    expect(customerWindow(hoursAgo(23.99), now).open).toBe(true);
    expect(customerWindow(hoursAgo(24), now).open).toBe(false);
    expect(customerWindow(hoursAgo(24.01), now).open).toBe(false);
  });

  it('says when it closes, from a Date (server rows) or an ISO string (wire messages)', () => {
    const last = hoursAgo(2);
    expect(customerWindow(last, now).closesAt).toEqual(new Date(last.getTime() + CUSTOMER_WINDOW_MS));
    expect(customerWindow(last.toISOString(), now)).toEqual(customerWindow(last, now));
  });

  it('is closed, with no closing time, when the customer never wrote', () => {
    expect(customerWindow(null, now)).toEqual({ open: false, closesAt: null });
    expect(customerWindow(undefined, now)).toEqual({ open: false, closesAt: null });
  });
});
