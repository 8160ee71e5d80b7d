/**
 * Meta's business-scoped user id as it spells it: ISO country letters, a dot, up to 128 letters or digits
 * (`US.13491208655302741918`), or `US.ENT.…` for a parent id. Sends, imports and searches check it here.
 */
export const userIdPattern = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;

/** Whether a text is a user id (as Meta spells it, no spaces). */
export const isUserId = (v: string): boolean => userIdPattern.test(v);

/** A username as people write it, `@maria` or `maria`: the name without the at sign. */
export const bareUsername = (v: string): string => v.trim().replace(/^@+/, '');
