/**
 * How deep JSON text nests, found by one pass over the text before it is parsed. Deeply nested bodies are
 * cheap to send and expensive everywhere after (recursive validation, JSON.stringify into a job, jsonb), so
 * every JSON body (REST and webhooks) is refused with 400 beyond `maxJsonDepth`.
 */

/** Far beyond any legitimate body: a bot canvas nests about 9 levels, a WhatsApp webhook about 8. */
export const maxJsonDepth = 64;

/** True when objects and arrays in `text` nest deeper than `maxDepth` (brackets inside strings do not count). */
export function jsonNestsDeeperThan(text: string, maxDepth = maxJsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export const tooDeepMessage = `The JSON body nests deeper than ${maxJsonDepth} levels`;
