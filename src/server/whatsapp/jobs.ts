/** The WhatsApp channel's durable jobs (their handlers are registered at the composition root). */
import { z } from 'zod';
import { defineJob } from '../jobs/names';

const uuid = z.uuid();

export const whatsappJobs = {
  /**
   * One verified WhatsApp webhook delivery (the inbound pipeline: inbound-pipeline.ts); idempotent by wamid.
   * Taken in batches: a burst of deliveries is stored a batch per transaction.
   */
  'whatsapp.webhook': defineJob(z.object({ payload: z.unknown(), receivedAt: z.number().optional(), waits: z.number().int().min(0).optional() }), {
    retryLimit: 8,
    concurrency: 2,
    batchSize: 100,
    runInSenderSeconds: 30,
  }),
  /** Read receipt for a conversation an agent answered (channel.ts); repeating it is harmless. */
  'whatsapp.mark-read': defineJob(z.object({ workspaceId: uuid, conversationId: uuid }), { retryLimit: 3, retryDelaySeconds: 5, concurrency: 2 }),
};
type Jobs = typeof whatsappJobs;

declare module '../jobs/names' {
  interface JobRegistry {
    'whatsapp.webhook': Jobs['whatsapp.webhook'];
    'whatsapp.mark-read': Jobs['whatsapp.mark-read'];
  }
}
