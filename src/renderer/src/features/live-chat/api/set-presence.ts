/** POST /conversation/{conversationId}/presence (addition): "I view / type in / left this conversation". */
import { api } from '../../../lib/api-client';
import type { PresenceState } from '@shared/schemas/presence';

export function sendPresence(conversationId: string, state: PresenceState): Promise<unknown> {
  // Presence is a courtesy: a failed signal is simply sent again on the next beat, never toasted.
  return api('setPresence', { params: { conversationId }, body: { state } }).catch(() => undefined);
}
