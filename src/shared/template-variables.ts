/**
 * WhatsApp template variables: `{{1}}`, `{{2}}` ... (positional) or `{{first_name}}` (named) in a header, body or
 * URL button text. One set of rules for the server (sending, storing the filled text), the renderer (template
 * editor preview, template sender, message bubbles) and the sandbox. Spaces inside the braces are tolerated, as
 * editors type them.
 *
 * Bot texts use the same braces for workspace attributes, whose names are free text (`{{First name}}`,
 * `{{Order #}}`): `attributeVariables` and `fillAttributeVariables` read those, for the bot's deploy check, its
 * editor and its runtime alike. A WhatsApp template's named variable stays `[A-Za-z0-9_]` (Meta's rule).
 */

/** A fresh global regex each time: a shared `g` regex keeps `lastIndex` between callers. */
import { ownValue } from './own-value';
const placeholder = () => /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The distinct variable names of a text in order of first appearance: "Hi {{1}}, {{2}} {{1}}" -> ['1', '2']. */
export function templateVariables(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...new Set([...text.matchAll(placeholder())].map((m) => m[1]))];
}

/** The distinct positional variable numbers of a text, ascending: "{{2}} {{1}} {{name}}" -> [1, 2]. */
export function positionalVariables(text: string | null | undefined): number[] {
  return templateVariables(text)
    .filter((v) => /^\d+$/.test(v))
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * The text with its variables filled. `values` is either a map from variable name to value, or a list holding
 * the values of templateVariables(text) in that order (what a send's `parameters.body` is). A variable without a
 * value, or with a blank one, stays as written, so a preview shows what is still missing.
 */
export function fillTemplateVariables(text: string, values: Readonly<Record<string, string | undefined>> | readonly string[]): string {
  const byName: Readonly<Record<string, string | undefined>> = Array.isArray(values)
    ? Object.fromEntries(templateVariables(text).map((name, i) => [name, values[i]]))
    : (values as Readonly<Record<string, string | undefined>>);
  return text.replace(placeholder(), (whole, name: string) => {
    const value = byName[name];
    return value !== undefined && value.trim() !== '' ? value : whole;
  });
}

/** A bot's `{{attribute name}}`: any characters but braces, trimmed; a blank name is no variable. */
const attributePlaceholder = () => /\{\{([^{}]+)\}\}/g;

/**
 * The distinct attribute names a bot text refers to, in order of first appearance:
 * "Hi {{ First name }}, {{email}}" -> ['First name', 'email'].
 */
export function attributeVariables(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...new Set([...text.matchAll(attributePlaceholder())].map((m) => m[1].trim()).filter((name) => name !== ''))];
}

/**
 * A bot text with its `{{attribute name}}` variables filled from values by attribute name; a name without a
 * value becomes empty (the customer never sees braces). Blank braces stay as written.
 */
export function fillAttributeVariables(text: string, values: Readonly<Record<string, string | undefined>>): string {
  return text.replace(attributePlaceholder(), (whole, raw: string) => {
    const name = raw.trim();
    return name === '' ? whole : (ownValue(values, name) ?? '');
  });
}
