/**
 * The words that opt a contact out of marketing (STOP, UNSUBSCRIBE, the "Stop promotions" button of a marketing
 * template, and the workspace's own keywords) or back in (START), compared trimmed, upper-case, single spaces.
 * Campaigns act on them; bots never take them as an answer.
 */
export const optOutWords: ReadonlySet<string> = new Set(['STOP', 'UNSUBSCRIBE', 'STOP PROMOTIONS']);
export const optInWords: ReadonlySet<string> = new Set(['START']);

/** The words of an inbound message as compared with the keywords. */
export const normalisedWords = (text: string | null | undefined): string => (text ?? '').trim().replace(/\s+/g, ' ').toUpperCase();

/** Whether a message is an opt-out or opt-in keyword (the built-in ones or the workspace's own). */
export function isOptKeyword(text: string | null | undefined, workspaceKeywords: readonly string[]): boolean {
  const words = normalisedWords(text);
  if (!words) return false;
  return optOutWords.has(words) || optInWords.has(words) || workspaceKeywords.some((k) => normalisedWords(k) === words);
}
