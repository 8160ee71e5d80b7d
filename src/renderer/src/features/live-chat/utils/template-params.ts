/** The variables of an approved template ({{1}}, {{2}} or named {{first_name}}) and its text with them filled. */
import type { WhatsappTemplate } from '@shared/schemas/entities';
import { templateVariables } from '@shared/template-variables';

/** The text with the values typed so far (a blank one leaves its `{{n}}` showing). */
export { fillTemplateVariables as fillTemplateText } from '@shared/template-variables';

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
        out.headerVariables = templateVariables(c.text);
      }
    } else if (c.type === 'BODY') {
      out.body = c.text;
      out.bodyVariables = templateVariables(c.text);
    } else if (c.type === 'FOOTER') {
      out.footer = c.text;
    } else if (c.type === 'BUTTONS') {
      out.buttons = c.buttons.map((b) => b.text);
    }
  }
  return out;
}
