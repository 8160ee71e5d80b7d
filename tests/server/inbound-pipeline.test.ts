/**
 * The inbound pipeline's contract (src/server/whatsapp/inbound-pipeline.ts), no database: each webhook field's
 * changes go to its handler in one call, handlers run in registration order, their retries are merged by delivery
 * index, and what no handler takes is logged. The handlers themselves are covered by ingest-rules.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createInboundPipeline, DeliveryWaits, type FieldChange, type FieldHandler } from '../../src/server/whatsapp/inbound-pipeline';
import { recordingLogger, type LoggedLine } from '../support/recording-logger';

const payload = (changes: { field: string; value?: unknown }[], time?: number) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: 'waba-1', ...(time ? { time } : {}), changes: changes.map((c) => ({ value: {}, ...c })) }],
});

function recorder(field: string, calls: { field: string; changes: FieldChange[] }[], retry: [number, unknown][] = []): FieldHandler {
  return {
    field,
    async handle(changes) {
      calls.push({ field, changes });
      return new Map(retry);
    },
  };
}

describe('the inbound pipeline', () => {
  it("hands each field's changes of a whole batch to its handler in one call, in registration order", async () => {
    const calls: { field: string; changes: FieldChange[] }[] = [];
    const p = createInboundPipeline({ log: recordingLogger([]) }, [recorder('messages', calls), recorder('quality', calls)]);
    await p.processDeliveries([
      { payload: payload([{ field: 'quality', value: { n: 1 } }, { field: 'messages', value: { n: 2 } }], 1_700_000_000), receivedAt: 5, waits: 2 },
      { payload: payload([{ field: 'messages', value: { n: 3 } }]), receivedAt: 7 },
    ]);
    expect(calls.map((c) => c.field)).toEqual(['messages', 'quality']);
    expect(calls[0].changes).toEqual([
      { index: 0, wabaId: 'waba-1', at: new Date(1_700_000_000_000), value: { n: 2 }, receivedAt: 5, waits: 2 },
      { index: 1, wabaId: 'waba-1', at: undefined, value: { n: 3 }, receivedAt: 7, waits: 0 },
    ]);
    expect(calls[1].changes.map((c) => c.value)).toEqual([{ n: 1 }]);
  });

  it('answers the retries of every handler by delivery index, a later handler replacing an earlier one', async () => {
    const first = new Error('first');
    const second = new Error('second');
    const p = createInboundPipeline({ log: recordingLogger([]) }, [
      recorder('messages', [], [[0, first], [1, first]]),
      recorder('quality', [], [[1, second]]),
    ]);
    const delivery = { payload: payload([{ field: 'messages' }, { field: 'quality' }]) };
    expect(await p.processDeliveries([delivery, delivery])).toEqual(new Map([[0, first], [1, second]]));
    await expect(p.processWebhook(delivery.payload)).rejects.toBe(first);
    const batch = await p.processWebhookBatch([
      { data: { payload: delivery.payload }, job: { id: 'job-a' } },
      { data: { payload: delivery.payload }, job: { id: 'job-b' } },
    ]);
    expect(batch).toEqual(new Map([['job-a', first], ['job-b', second]]));
  });

  it('logs a field no handler takes and a payload that is not a WhatsApp Business one, and calls no handler for them', async () => {
    const lines: LoggedLine[] = [];
    const calls: { field: string; changes: FieldChange[] }[] = [];
    const p = createInboundPipeline({ log: recordingLogger(lines) }, [recorder('messages', calls)]);
    expect((await p.processDeliveries([{ payload: payload([{ field: 'user_preferences' }]) }, { payload: { hello: 'world' } }])).size).toBe(0);
    expect(calls).toEqual([]);
    expect(lines.map((l) => [l.level, l.msg, l.obj])).toEqual([
      ['debug', 'webhook field not used by Parley', { field: 'user_preferences' }],
      ['warn', 'webhook delivery that is not a WhatsApp Business payload dropped', {}],
    ]);
  });

  it('refuses two handlers for one field', () => {
    expect(() => createInboundPipeline({ log: recordingLogger([]) }, [recorder('messages', []), recorder('messages', [])])).toThrow(
      'two inbound handlers are registered for the same webhook field',
    );
  });

  it('queues a waiting delivery again after its wait, one wait more, and counts its job done; a failed queueing is a retry', async () => {
    const requeued: { delivery: unknown; afterSeconds: number }[] = [];
    const waits = new DeliveryWaits('waits for its send', 4);
    const other = new Error('store failed');
    const delivery = { payload: payload([{ field: 'messages' }]), receivedAt: 9 };
    const build = (requeue: (d: unknown, s: number) => Promise<unknown>) =>
      createInboundPipeline({ log: recordingLogger([]), requeue }, [recorder('messages', [], [[0, waits], [1, other]])]);
    const p = build(async (d, afterSeconds) => requeued.push({ delivery: d, afterSeconds }));
    const batch = await p.processWebhookBatch([
      { data: { ...delivery, waits: 2 }, job: { id: 'job-a' } },
      { data: delivery, job: { id: 'job-b' } },
    ]);
    expect(batch).toEqual(new Map([['job-b', other]]));
    expect(requeued).toEqual([{ delivery: { payload: delivery.payload, receivedAt: 9, waits: 3 }, afterSeconds: 4 }]);

    const down = new Error('queue down');
    const failing = createInboundPipeline({ log: recordingLogger([]), requeue: async () => Promise.reject(down) }, [recorder('messages', [], [[0, waits]])]);
    expect(await failing.processWebhookBatch([{ data: delivery, job: { id: 'job-c' } }])).toEqual(new Map([['job-c', down]]));
    // without a way to queue again, the wait is a retry like any failure
    const bare = createInboundPipeline({ log: recordingLogger([]) }, [recorder('messages', [], [[0, waits]])]);
    expect(await bare.processWebhookBatch([{ data: delivery, job: { id: 'job-d' } }])).toEqual(new Map([['job-d', waits]]));
  });
});
