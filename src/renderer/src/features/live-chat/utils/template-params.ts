/** The variables of an approved template ({{1}}, {{2}} or named {{first_name}}) and its text with them filled. */
import type { WhatsappTemplate } from '../../../../../shared/schemas/entities';

const VAR = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

export function variablesOf(text: string | undefined): string[] {
  if (!text) return [];
  const seen: string[] = [];
  for (const m of text.matchAll(VAR)) if (!seen.includes(m[1])) seen.push(m[1]);
  return seen;
}

export function fillTemplateText(text: string, values: Record<string, string>): string {
  return text.replace(VAR, (all, name: string) => (values[name] ? values[name] : all));
}

export interface TemplateParts {
  header?: string;
  headerFormat?: string;
  body: string;
  footer?: string;
  buttons: string[];
  headerVariables: string[];
  bodyVariables: string[];
}

export function templateParts(t: Pick<WhatsappTemplate, 'components'>): TemplateParts {
  const out: TemplateParts = { body: '', buttons: [], headerVariables: [], bodyVariables: [] };
  for (const c of t.components) {
    if (c.type === 'HEADER') {
      out.headerFormat = c.format;
      if (c.format === 'TEXT' && c.text) {
        out.header = c.text;
        out.headerVariables = variablesOf(c.text);
      }
    } else if (c.type === 'BODY') {
      out.body = c.text;
      out.bodyVariables = variablesOf(c.text);
    } else if (c.type === 'FOOTER') {
      out.footer = c.text;
    } else if (c.type === 'BUTTONS') {
      out.buttons = c.buttons.map((b) => b.text);
    }
  }
  return out;
}
