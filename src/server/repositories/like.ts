/** Escapes LIKE wildcards (and the escape character) so a search for "50%" finds "50%": the one helper for it. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);
