// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryTicks } from '../../../src/renderer/src/features/live-chat/components/delivery-ticks';

afterEach(cleanup);

describe('DeliveryTicks', () => {
  it('sent is one tick, delivered two grey ticks, read two blue ticks', () => {
    const { rerender, container } = render(<DeliveryTicks status="sent" failureReason={null} />);
    expect(screen.getByRole('img', { name: 'Sent' })).toBeInTheDocument();
    expect(container.querySelectorAll('svg')).toHaveLength(1);
    expect(container.querySelector('svg')!.getAttribute('class')).toContain('lucide-check');
    expect(container.querySelector('svg')!.getAttribute('class')).not.toContain('check-check');

    rerender(<DeliveryTicks status="delivered" failureReason={null} />);
    expect(screen.getByRole('img', { name: 'Delivered' })).toBeInTheDocument();
    expect(container.querySelector('svg')!.getAttribute('class')).toContain('lucide-check-check');
    expect(container.querySelector('svg')!.getAttribute('class')).not.toContain('sky');

    rerender(<DeliveryTicks status="read" failureReason={null} />);
    expect(screen.getByRole('img', { name: 'Read' })).toBeInTheDocument();
    expect(container.querySelector('svg')!.getAttribute('class')).toContain('lucide-check-check');
    expect(container.querySelector('svg')!.getAttribute('class')).toContain('text-sky-500');
  });

  it('failed carries the reason', () => {
    render(<DeliveryTicks status="failed" failureReason="Message outside the 24-hour window" />);
    const el = screen.getByRole('img', { name: 'Not delivered: Message outside the 24-hour window' });
    expect(el).toHaveAttribute('title', 'Not delivered: Message outside the 24-hour window');
  });

  it('pending shows a clock; an inbound message shows nothing', () => {
    const { rerender, container } = render(<DeliveryTicks status="pending" failureReason={null} />);
    expect(screen.getByRole('img', { name: 'Sending' })).toBeInTheDocument();
    rerender(<DeliveryTicks status="received" failureReason={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});
