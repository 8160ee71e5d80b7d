/**
 * The template editor's form model and how it becomes the WhatsApp `components` list of POST /whatsapp-template.
 * Field rules come from the shared schemas (TemplateName with the spec's message, TemplateCategory,
 * TemplateComponent limits); the request is parsed with CreateTemplateBody before it is sent.
 */
import { z } from 'zod';
import { messages, productMessages } from '@shared/messages';
import { TemplateCategory, TemplateName, type TemplateComponent } from '@shared/schemas/entities';
import { isValidMobileNumber } from '@shared/schemas/requests';
import { fillTemplateVariables, positionalVariables } from '@shared/template-variables';

export const headerFormats = ['NONE', 'TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export const buttonTypes = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const;

const Button = z.object({
  type: z.enum(buttonTypes),
  text: z.string().trim().min(1, { error: messages.fieldEmpty }).max(25, { error: 'Button text is at most 25 characters' }),
  url: z.string(),
  phone_number: z.string(),
});

export const TemplateForm = z
  .object({
    name: TemplateName,
    category: TemplateCategory,
    language: z.string().min(2, { error: messages.fieldEmpty }),
    whatsappAccountId: z.string().min(1, { error: messages.fieldEmpty }),
    headerFormat: z.enum(headerFormats),
    headerText: z.string().max(60, { error: 'The header is at most 60 characters' }),
    headerExample: z.string(),
    headerHandle: z.string(),
    mediaUrl: z.string(),
    mediaName: z.string(),
    body: z.string().trim().min(1, { error: messages.fieldEmpty }).max(1024, { error: 'The body is at most 1024 characters' }),
    bodyExamples: z.array(z.string()),
    footer: z.string().max(60, { error: 'The footer is at most 60 characters' }),
    buttons: z.array(Button).max(10),
  })
  .superRefine((v, ctx) => {
    if (v.headerFormat === 'TEXT') {
      if (!v.headerText.trim()) ctx.addIssue({ code: 'custom', path: ['headerText'], message: messages.fieldEmpty });
      if (variablesOf(v.headerText).length > 0 && !v.headerExample.trim())
        ctx.addIssue({ code: 'custom', path: ['headerExample'], message: 'Give an example value for {{1}}' });
    }
    if (['IMAGE', 'VIDEO', 'DOCUMENT'].includes(v.headerFormat) && !v.headerHandle)
      ctx.addIssue({ code: 'custom', path: ['headerHandle'], message: 'Upload a sample file for the header' });
    const vars = variablesOf(v.body);
    vars.forEach((n, i) => {
      if (!v.bodyExamples[i]?.trim())
        ctx.addIssue({ code: 'custom', path: ['bodyExamples', i], message: `Give an example value for {{${n}}}` });
    });
    v.buttons.forEach((b, i) => {
      if (b.type === 'URL' && !/^https?:\/\/\S+\.\S+/.test(b.url.trim()))
        ctx.addIssue({ code: 'custom', path: ['buttons', i, 'url'], message: productMessages.mustBeUrl });
      if (b.type === 'PHONE_NUMBER' && !isValidMobileNumber(b.phone_number))
        ctx.addIssue({ code: 'custom', path: ['buttons', i, 'phone_number'], message: messages.phoneInvalid });
    });
  });
export type TemplateFormValues = z.infer<typeof TemplateForm>;

export const emptyTemplate: TemplateFormValues = {
  name: '',
  category: 'MARKETING',
  language: 'en_US',
  whatsappAccountId: '',
  headerFormat: 'NONE',
  headerText: '',
  headerExample: '',
  headerHandle: '',
  mediaUrl: '',
  mediaName: '',
  body: '',
  bodyExamples: [],
  footer: '',
  buttons: [],
};

/** The distinct variable numbers in a text, ascending: "Hi {{1}}, {{2}}" -> [1, 2]. */
export const variablesOf = positionalVariables;

/** The text with each {{n}} replaced by its example (examples[i] belongs to the i-th number), or left as is. */
export function fillVariables(text: string, examples: string[]): string {
  return fillTemplateVariables(text, Object.fromEntries(positionalVariables(text).map((n, i) => [String(n), examples[i]])));
}

/** WhatsApp `components` of the template (HEADER, BODY, FOOTER, BUTTONS). */
export function toComponents(v: TemplateFormValues): TemplateComponent[] {
  const out: TemplateComponent[] = [];
  if (v.headerFormat === 'TEXT') {
    out.push({
      type: 'HEADER',
      format: 'TEXT',
      text: v.headerText.trim(),
      ...(variablesOf(v.headerText).length > 0 ? { example: { header_text: [v.headerExample.trim()] } } : {}),
    });
  } else if (v.headerFormat !== 'NONE') {
    out.push({ type: 'HEADER', format: v.headerFormat, example: { header_handle: [v.headerHandle] } });
  }
  const vars = variablesOf(v.body);
  out.push({
    type: 'BODY',
    text: v.body.trim(),
    ...(vars.length > 0 ? { example: { body_text: [vars.map((_, i) => v.bodyExamples[i].trim())] } } : {}),
  });
  if (v.footer.trim()) out.push({ type: 'FOOTER', text: v.footer.trim() });
  if (v.buttons.length > 0) {
    out.push({
      type: 'BUTTONS',
      buttons: v.buttons.map((b) =>
        b.type === 'URL'
          ? { type: 'URL', text: b.text.trim(), url: b.url.trim() }
          : b.type === 'PHONE_NUMBER'
            ? { type: 'PHONE_NUMBER', text: b.text.trim(), phone_number: b.phone_number.trim() }
            : { type: 'QUICK_REPLY', text: b.text.trim() },
      ),
    });
  }
  return out;
}
