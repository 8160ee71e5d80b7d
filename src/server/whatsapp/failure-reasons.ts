/** Why WhatsApp did not deliver a message, in words an agent understands (status webhook `errors[]`). */
import type { StatusError } from './webhook-payload';

const reasons: Record<number, string> = {
  131047: 'More than 24 hours have passed since the customer last wrote; send an approved template instead',
  131026: 'The message could not be delivered: the number may not be on WhatsApp or may use an old app version',
  131049: 'WhatsApp did not deliver this message to keep engagement healthy; try again later',
  131048: 'Sending is restricted because too many messages were blocked or reported',
  131056: 'Too many messages were sent to this customer in a short time; try again shortly',
  130429: 'Too many messages were sent from this number in a short time; try again shortly',
  131051: 'This message type is not supported',
  131052: 'The media could not be downloaded from the customer',
  131053: 'The media could not be uploaded',
  132000: 'The number of template parameters does not match the template',
  132001: 'The template does not exist in this language or is not approved',
  132015: 'The template is paused',
  132016: 'The template is disabled',
  368: 'The WhatsApp account is blocked for policy reasons',
  131031: 'The WhatsApp account is locked',
};

export function failureReasonOf(errors: StatusError[] | undefined): string {
  const e = errors?.[0];
  if (!e) return 'WhatsApp did not deliver the message';
  const known = e.code !== undefined ? reasons[e.code] : undefined;
  const text = known ?? e.error_data?.details ?? e.message ?? e.title ?? 'WhatsApp did not deliver the message';
  return e.code !== undefined ? `${text} (code ${e.code})` : text;
}
