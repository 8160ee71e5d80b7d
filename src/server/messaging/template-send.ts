/**
 * One preparation of a template send for live chat, campaigns and bots: the send components WhatsApp takes
 * (header media as an expiring signed link, header text, body and URL-button parameters) and what the
 * conversation shows (the filled header, body text, footer and buttons).
 *
 * Values come either as a member gives them (message-service: body values in order, headerText, urlButtons)
 * or from a node's variable mapping, per contact (valuesFromMapping: a contact field, an attribute or fixed
 * text for each variable).
 */
import type { Contact, TemplateComponent, TemplateVariableMapping } from '../../shared';
import { fillTemplateVariables, templateVariables } from '../../shared/template-variables';
import { badRequest } from '../errors';
import type { FileStore } from '../storage/file-store';
import { type TemplateParameter, templateComponents } from '../whatsapp/graph-client';
import type { OutboundContent } from './outbound-request';
import { ownValue } from '../../shared/own-value';

export type TemplateContent = Extract<OutboundContent, { type: 'template' }>;

/** What a template send needs of the stored template. */
export interface TemplateForSend {
  id: string;
  name: string;
  language: string;
  mediaUrl: string | null;
  components: unknown;
}

/** The values of one send: body values in the order of templateVariables(body), and the optional parts. */
export interface TemplateValues {
  body: string[];
  headerMediaLink?: string;
  headerText?: string;
  urlButtons?: string[];
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function partsOf(tpl: TemplateForSend) {
  const components = tpl.components as TemplateComponent[];
  const buttons = components.find((x) => x.type === 'BUTTONS');
  return {
    header: components.find((x) => x.type === 'HEADER'),
    body: components.find((x) => x.type === 'BODY'),
    footer: components.find((x) => x.type === 'FOOTER'),
    buttons,
    dynamicUrls: (buttons?.buttons ?? []).map((b, index) => ({ b, index })).filter(({ b }) => b.type === 'URL' && templateVariables(b.url).length > 0),
  };
}

/**
 * The outbound content of a template send; a missing value answers 400 with what is missing (the member's
 * request, or the campaign's mapping, must supply it). Header media of this workspace is signed for 24 hours.
 */
export async function prepareTemplateSend(
  files: Pick<FileStore, 'resolveReference' | 'publicLink'>,
  workspaceId: string,
  tpl: TemplateForSend,
  values: TemplateValues,
): Promise<TemplateContent> {
  const { header, body, footer, buttons, dynamicUrls } = partsOf(tpl);
  const names = templateVariables(body?.text);
  if (values.body.length !== names.length) {
    throw badRequest(`This template needs ${plural(names.length, 'body parameter')}, ${values.body.length} given`);
  }
  const named = names.length > 0 && names.some((n) => !/^\d+$/.test(n));

  let headerParam: TemplateParameter | undefined;
  let headerWire: Record<string, unknown> | null = null;
  if (header && (header.format === 'IMAGE' || header.format === 'VIDEO' || header.format === 'DOCUMENT')) {
    const link = values.headerMediaLink ?? tpl.mediaUrl ?? undefined;
    if (!link) throw badRequest('This template has a media header: give headerMediaLink');
    const kind = header.format.toLowerCase() as 'image' | 'video' | 'document';
    // Only a file of this workspace is signed (an expiring link Meta can fetch); other addresses go as they are.
    const field = values.headerMediaLink ? 'headerMediaLink' : 'mediaUrl';
    const ref = await files.resolveReference(link, { workspaceId, field, allowExternal: true });
    headerParam = { type: kind, [kind]: { link: files.publicLink(ref, 24 * 3600) } } as TemplateParameter;
    headerWire = { type: kind, link };
  } else if (header?.format === 'TEXT') {
    const variables = templateVariables(header.text);
    if (variables.length > 0 && !values.headerText) throw badRequest("This template's header has a variable: give headerText");
    if (variables.length > 0) headerParam = { type: 'text', text: values.headerText! };
    headerWire = { type: 'text', text: fillTemplateVariables(header.text ?? '', values.headerText ? [values.headerText] : []) };
  }

  const urlValues = values.urlButtons ?? [];
  if (urlValues.length !== dynamicUrls.length) {
    throw badRequest(`This template needs ${plural(dynamicUrls.length, 'URL button value')}, ${urlValues.length} given`);
  }
  return {
    type: 'template',
    templateId: tpl.id,
    name: tpl.name,
    language: tpl.language,
    components: templateComponents({
      header: headerParam,
      body: named ? Object.fromEntries(names.map((n, i) => [n, values.body[i]])) : values.body,
      buttons: dynamicUrls.map(({ index }, i) => ({ index, subType: 'url' as const, parameter: { type: 'text' as const, text: urlValues[i] } })),
    }),
    header: headerWire,
    text: body ? fillTemplateVariables(body.text, values.body) : null,
    footer: footer?.text ?? null,
    action: buttons ? { buttons: buttons.buttons } : null,
  };
}

/** A contact as the mapping reads it: its fields and its attributes by attribute name. */
export type MappedContact = Pick<Contact, 'name' | 'phoneNumber' | 'email' | 'country' | 'city' | 'attributes'>;

/**
 * The values of one recipient from a node's variable mapping: each variable takes a contact field, an
 * attribute (`attributeNames` maps attribute ids to the names contacts store them under) or fixed text; an
 * empty value takes the mapping's fallback. Answers the reason when a value is still missing (the recipient
 * fails with it: WhatsApp refuses an empty parameter).
 */
export function valuesFromMapping(
  tpl: TemplateForSend,
  mappings: readonly TemplateVariableMapping[],
  contact: MappedContact,
  attributeNames: ReadonlyMap<string, string>,
  headerMediaLink?: string | null,
): { values: TemplateValues } | { missing: string } {
  const { header, body, dynamicUrls } = partsOf(tpl);
  const valueOf = (component: TemplateVariableMapping['component'], variable: string): string | null => {
    const m = mappings.find((x) => x.component === component && x.variable === variable);
    if (!m) return null;
    let v: unknown;
    if (m.source === 'text') v = m.value;
    else if (m.source === 'field') v = ownValue(contact as unknown as Record<string, unknown>, m.value);
    else {
      const name = attributeNames.get(m.value);
      v = name === undefined ? null : ownValue(contact.attributes, name);
    }
    const text = v === null || v === undefined ? '' : String(v).trim();
    return text || m.fallback?.trim() || null;
  };
  const bodyValues: string[] = [];
  for (const name of templateVariables(body?.text)) {
    const v = valueOf('BODY', name);
    if (v === null) return { missing: `no value for {{${name}}} of the body` };
    bodyValues.push(v);
  }
  const values: TemplateValues = { body: bodyValues };
  if (header?.format === 'TEXT' && templateVariables(header.text).length > 0) {
    const v = valueOf('HEADER', templateVariables(header.text)[0]);
    if (v === null) return { missing: 'no value for the header variable' };
    values.headerText = v;
  }
  if (dynamicUrls.length > 0) {
    const urls: string[] = [];
    for (const { index } of dynamicUrls) {
      const v = valueOf('BUTTON', String(index));
      if (v === null) return { missing: `no value for the URL of button ${index + 1}` };
      urls.push(v);
    }
    values.urlButtons = urls;
  }
  if (headerMediaLink) values.headerMediaLink = headerMediaLink;
  return { values };
}
