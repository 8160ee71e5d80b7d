/** Meta's callback URL path, one for every connected number (the route is http/whatsapp-webhook.ts). */
export const WEBHOOK_PATH = '/webhooks/whatsapp';
