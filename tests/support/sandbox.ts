/**
 * The WhatsApp sandbox as the test app's Graph API: started on a free port, its webhooks delivered straight
 * into the app under test (signed with the test app secret, through the real /webhooks/whatsapp route).
 */
import type { FastifyInstance } from 'fastify';
import { type Sandbox, startSandbox } from '../../src/sandbox';
import { testAppSecret } from './sandbox-webhooks';

export async function startTestSandbox(target: () => FastifyInstance | undefined): Promise<Sandbox> {
  return startSandbox({
    port: 0,
    appSecret: testAppSecret,
    templateReviewDelayMs: 300,
    statusDelayMs: 20,
    webhookRetryDelayMs: 50,
    deliver: async (rawBody, headers) => {
      const app = target();
      if (!app) return 503;
      const res = await app.inject({ method: 'POST', url: '/webhooks/whatsapp', headers, payload: rawBody });
      return res.statusCode;
    },
  });
}
