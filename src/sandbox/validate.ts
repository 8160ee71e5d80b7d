/**
 * Checks an outbound `POST /{PHONE_NUMBER_ID}/messages` body the way the Cloud API does (reference §1) and
 * answers Meta's error codes: 100 for an unsupported or malformed request, 131008 for a missing required
 * parameter, 131009 for a value out of its limits. State-dependent checks (template exists, window, media id
 * known, flow exists) are done by the sandbox core with the result of this parse.
 */
import { badParam, invalid, missing } from './graph-error';
import { userIdPattern } from './identities';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const mediaKinds = ['image', 'video', 'document', 'audio', 'sticker'] as const;
export type MediaKind = (typeof mediaKinds)[number];
const captioned: readonly string[] = ['image', 'video', 'document'];

export interface MediaRef {
  kind: MediaKind;
  id?: string;
  link?: string;
}

export interface TemplateRequest {
  name: string;
  language: string;
  components: Obj[];
}

export interface ParsedSend {
  /** The phone as given (`to`), or the user id when only `recipient` was given. */
  to: string;
  /** The phone's digits; empty when the send names only a user id (messaging.ts resolves it). */
  waId: string;
  /** `recipient`: a (parent) business-scoped user id; `to` wins when both are given. */
  recipient?: string;
  type: string;
  /** The type's object as sent (text, image, template, interactive, ...). */
  content: Obj;
  contextMessageId?: string;
  bizOpaqueCallbackData?: string;
  /** Every media reference: the message's own, a header's, a template parameter's. */
  mediaRefs: MediaRef[];
  template?: TemplateRequest;
  flow?: { id?: string; name?: string; mode: 'draft' | 'published' };
}

/** Characters as WhatsApp counts them (code points, so an emoji counts once). */
const length = (s: string) => [...s].length;

function text(o: Obj, key: string, path: string, opts: { required?: boolean; max?: number; nonEmpty?: boolean } = {}): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (opts.required) throw missing(`The parameter ${path} is required.`);
    return undefined;
  }
  if (typeof v !== 'string') throw badParam(`Param ${path} must be a string.`);
  if ((opts.required || opts.nonEmpty) && v.trim() === '') throw invalid(`Param ${path} must be a non-empty string.`);
  if (opts.max !== undefined && length(v) > opts.max) throw invalid(`Param ${path} must be at most ${opts.max} characters long.`);
  return v;
}

function object(o: Obj, key: string, path: string, required = true): Obj | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw missing(`The parameter ${path} is required.`);
    return undefined;
  }
  if (!isObj(v)) throw badParam(`Param ${path} must be a JSON object.`);
  return v;
}

function array(o: Obj, key: string, path: string, required = true): unknown[] | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw missing(`The parameter ${path} is required.`);
    return undefined;
  }
  if (!Array.isArray(v)) throw badParam(`Param ${path} must be an array.`);
  return v;
}

function url(value: string, path: string): void {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw invalid(`Param ${path} must be a valid URL.`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalid(`Param ${path} must be an http(s) URL.`);
}

/** Media object of a message or a template/interactive header: `id` XOR `link`. */
export function parseMediaObject(kind: MediaKind, o: Obj, path: string, allowCaption: boolean): MediaRef {
  const id = text(o, 'id', `${path}['id']`);
  const link = text(o, 'link', `${path}['link']`);
  if (id !== undefined && link !== undefined) throw badParam(`Param ${path} must contain either 'id' or 'link', not both.`);
  if (id === undefined && link === undefined) throw missing(`The parameter ${path}['id'] or ${path}['link'] is required.`);
  if (link !== undefined) url(link, `${path}['link']`);
  if (o.caption !== undefined) {
    if (!allowCaption || !captioned.includes(kind)) throw badParam(`Param ${path}['caption'] is not supported for ${kind}.`);
    text(o, 'caption', `${path}['caption']`, { max: 1024 });
  }
  if (o.filename !== undefined) {
    if (kind !== 'document') throw badParam(`Param ${path}['filename'] is only supported for documents.`);
    text(o, 'filename', `${path}['filename']`, { max: 240, nonEmpty: true });
  }
  return { kind, id, link };
}

function uniqueOrThrow(values: string[], path: string, what: string): void {
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) throw invalid(`${what} must be unique; "${v}" appears more than once in ${path}.`);
    seen.add(v);
  }
}

function parseList(i: Obj): void {
  const header = object(i, 'header', "interactive['header']", false);
  if (header) {
    if (header.type !== 'text') throw badParam("Param interactive['header']['type'] must be 'text' for list messages.");
    text(header, 'text', "interactive['header']['text']", { required: true, max: 60 });
  }
  const body = object(i, 'body', "interactive['body']")!;
  text(body, 'text', "interactive['body']['text']", { required: true, max: 4096 });
  const footer = object(i, 'footer', "interactive['footer']", false);
  if (footer) text(footer, 'text', "interactive['footer']['text']", { required: true, max: 60 });
  const action = object(i, 'action', "interactive['action']")!;
  text(action, 'button', "interactive['action']['button']", { required: true, max: 20 });
  const sections = array(action, 'sections', "interactive['action']['sections']")!;
  if (sections.length < 1 || sections.length > 10) throw invalid("Param interactive['action']['sections'] must have between 1 and 10 sections.");
  let rows = 0;
  const rowIds: string[] = [];
  sections.forEach((s, si) => {
    const sp = `interactive['action']['sections'][${si}]`;
    if (!isObj(s)) throw badParam(`Param ${sp} must be a JSON object.`);
    // A title is what tells several sections apart; with a single section it may be left out.
    text(s, 'title', `${sp}['title']`, { required: sections.length > 1, max: 24 });
    const r = array(s, 'rows', `${sp}['rows']`)!;
    if (r.length < 1) throw invalid(`Param ${sp}['rows'] must have at least 1 row.`);
    r.forEach((row, ri) => {
      const rp = `${sp}['rows'][${ri}]`;
      if (!isObj(row)) throw badParam(`Param ${rp} must be a JSON object.`);
      rowIds.push(text(row, 'id', `${rp}['id']`, { required: true, max: 200 })!);
      text(row, 'title', `${rp}['title']`, { required: true, max: 24 });
      text(row, 'description', `${rp}['description']`, { max: 72 });
    });
    rows += r.length;
  });
  if (rows > 10) throw invalid(`A list message can have at most 10 rows in total across all sections; got ${rows}.`);
  uniqueOrThrow(rowIds, "interactive['action']['sections']", 'Row ids');
}

function parseInteractiveHeader(i: Obj, media: MediaRef[]): void {
  const header = object(i, 'header', "interactive['header']", false);
  if (!header) return;
  const type = text(header, 'type', "interactive['header']['type']", { required: true })!;
  if (type === 'text') {
    text(header, 'text', "interactive['header']['text']", { required: true, max: 60 });
  } else if (type === 'image' || type === 'video' || type === 'document') {
    media.push(parseMediaObject(type, object(header, type, `interactive['header']['${type}']`)!, `interactive['header']['${type}']`, false));
  } else {
    throw badParam(`Param interactive['header']['type'] must be one of text, image, video, document.`);
  }
}

function parseButtons(i: Obj, media: MediaRef[]): void {
  parseInteractiveHeader(i, media);
  const body = object(i, 'body', "interactive['body']")!;
  text(body, 'text', "interactive['body']['text']", { required: true, max: 1024 });
  const footer = object(i, 'footer', "interactive['footer']", false);
  if (footer) text(footer, 'text', "interactive['footer']['text']", { required: true, max: 60 });
  const action = object(i, 'action', "interactive['action']")!;
  const buttons = array(action, 'buttons', "interactive['action']['buttons']")!;
  if (buttons.length < 1 || buttons.length > 3) throw invalid("Param interactive['action']['buttons'] must have between 1 and 3 buttons.");
  const titles: string[] = [];
  const ids: string[] = [];
  buttons.forEach((b, bi) => {
    const bp = `interactive['action']['buttons'][${bi}]`;
    if (!isObj(b)) throw badParam(`Param ${bp} must be a JSON object.`);
    if (b.type !== 'reply') throw badParam(`Param ${bp}['type'] must be 'reply'.`);
    const reply = object(b, 'reply', `${bp}['reply']`)!;
    ids.push(text(reply, 'id', `${bp}['reply']['id']`, { required: true, max: 256 })!);
    titles.push(text(reply, 'title', `${bp}['reply']['title']`, { required: true, max: 20 })!);
  });
  uniqueOrThrow(titles, "interactive['action']['buttons']", 'Button titles');
  uniqueOrThrow(ids, "interactive['action']['buttons']", 'Button ids');
}

const emoji = /\p{Extended_Pictographic}/u;

function parseFlow(i: Obj, media: MediaRef[]): NonNullable<ParsedSend['flow']> {
  parseInteractiveHeader(i, media);
  const body = object(i, 'body', "interactive['body']")!;
  text(body, 'text', "interactive['body']['text']", { required: true, max: 1024 });
  const footer = object(i, 'footer', "interactive['footer']", false);
  if (footer) text(footer, 'text', "interactive['footer']['text']", { required: true, max: 60 });
  const action = object(i, 'action', "interactive['action']")!;
  if (action.name !== 'flow') throw badParam("Param interactive['action']['name'] must be 'flow'.");
  const p = object(action, 'parameters', "interactive['action']['parameters']")!;
  const pp = "interactive['action']['parameters']";
  const version = text(p, 'flow_message_version', `${pp}['flow_message_version']`, { required: true });
  if (version !== '3') throw invalid(`Param ${pp}['flow_message_version'] must be '3'.`);
  text(p, 'flow_token', `${pp}['flow_token']`, { max: 1000 });
  const id = text(p, 'flow_id', `${pp}['flow_id']`);
  const name = text(p, 'flow_name', `${pp}['flow_name']`);
  if (id === undefined && name === undefined) throw missing(`The parameter ${pp}['flow_id'] or ${pp}['flow_name'] is required.`);
  if (id !== undefined && name !== undefined) throw badParam(`Param ${pp} must contain either 'flow_id' or 'flow_name', not both.`);
  const cta = text(p, 'flow_cta', `${pp}['flow_cta']`, { required: true, max: 20 })!;
  if (emoji.test(cta)) throw invalid(`Param ${pp}['flow_cta'] must not contain emoji.`);
  const flowAction = text(p, 'flow_action', `${pp}['flow_action']`) ?? 'navigate';
  if (flowAction !== 'navigate' && flowAction !== 'data_exchange') throw invalid(`Param ${pp}['flow_action'] must be 'navigate' or 'data_exchange'.`);
  if (flowAction === 'navigate') {
    const payload = object(p, 'flow_action_payload', `${pp}['flow_action_payload']`)!;
    text(payload, 'screen', `${pp}['flow_action_payload']['screen']`, { required: true });
    if (payload.data !== undefined && !isObj(payload.data)) throw badParam(`Param ${pp}['flow_action_payload']['data'] must be a JSON object.`);
  } else if (p.flow_action_payload !== undefined) {
    throw badParam(`Param ${pp}['flow_action_payload'] must be omitted when flow_action is 'data_exchange'.`);
  }
  const mode = text(p, 'mode', `${pp}['mode']`) ?? 'published';
  if (mode !== 'draft' && mode !== 'published') throw invalid(`Param ${pp}['mode'] must be 'draft' or 'published'.`);
  return { id, name, mode };
}

function parseTemplate(t: Obj, media: MediaRef[]): TemplateRequest {
  const name = text(t, 'name', "template['name']", { required: true, max: 512 })!;
  const language = object(t, 'language', "template['language']")!;
  const code = text(language, 'code', "template['language']['code']", { required: true, max: 15 })!;
  const components = (array(t, 'components', "template['components']", false) ?? []).map((c, ci) => {
    const cp = `template['components'][${ci}]`;
    if (!isObj(c)) throw badParam(`Param ${cp} must be a JSON object.`);
    const type = text(c, 'type', `${cp}['type']`, { required: true })!.toLowerCase();
    if (!['header', 'body', 'button'].includes(type)) throw badParam(`Param ${cp}['type'] must be header, body or button.`);
    const params = array(c, 'parameters', `${cp}['parameters']`, type !== 'button') ?? [];
    params.forEach((param, pi) => {
      const ppath = `${cp}['parameters'][${pi}]`;
      if (!isObj(param)) throw badParam(`Param ${ppath} must be a JSON object.`);
      const ptype = text(param, 'type', `${ppath}['type']`, { required: true })!;
      if (ptype === 'text') text(param, 'text', `${ppath}['text']`, { required: true, max: type === 'header' ? 60 : 1024 });
      else if (ptype === 'image' || ptype === 'video' || ptype === 'document') {
        media.push(parseMediaObject(ptype, object(param, ptype, `${ppath}['${ptype}']`)!, `${ppath}['${ptype}']`, false));
      } else if (ptype === 'currency') object(param, 'currency', `${ppath}['currency']`);
      else if (ptype === 'date_time') object(param, 'date_time', `${ppath}['date_time']`);
      else if (ptype === 'payload') text(param, 'payload', `${ppath}['payload']`, { required: true, max: 128 });
      else if (!['coupon_code', 'action'].includes(ptype)) throw badParam(`Param ${ppath}['type'] '${ptype}' is not supported.`);
    });
    if (type === 'button') {
      text(c, 'sub_type', `${cp}['sub_type']`, { required: true });
      const index = text(c, 'index', `${cp}['index']`, { required: true })!;
      if (!/^\d$/.test(index)) throw invalid(`Param ${cp}['index'] must be a button position from '0' to '9'.`);
    }
    return { ...c, type, parameters: params } as Obj;
  });
  return { name, language: code, components };
}

/** Parses a send body; throws SandboxGraphError like Meta would. Mark-as-read bodies are handled elsewhere. */
export function parseSend(body: unknown): ParsedSend {
  if (!isObj(body)) throw badParam('The request body must be a JSON object.');
  if (body.messaging_product !== 'whatsapp') throw badParam("The parameter messaging_product is required and must be 'whatsapp'.");
  if (body.recipient_type !== undefined && body.recipient_type !== 'individual') throw badParam("Param recipient_type must be 'individual'.");
  const recipient = text(body, 'recipient', 'recipient');
  if (recipient !== undefined && !userIdPattern.test(recipient)) throw badParam(`Param recipient must be a business-scoped user id; got "${recipient}".`);
  const given = text(body, 'to', 'to', { required: recipient === undefined });
  const to = given ?? recipient!;
  const waId = given === undefined ? '' : given.replace(/[\s()+-]/g, '');
  if (given !== undefined && !/^\d{7,15}$/.test(waId)) throw badParam(`Param to must be a phone number with country code; got "${to}".`);
  const type = body.type === undefined ? 'text' : text(body, 'type', 'type', { required: true })!;
  const context = object(body, 'context', 'context', false);
  const contextMessageId = context ? text(context, 'message_id', "context['message_id']", { required: true, max: 128 }) : undefined;
  const bizOpaqueCallbackData = text(body, 'biz_opaque_callback_data', 'biz_opaque_callback_data', { max: 512 });
  const content = object(body, type, type)!;
  const media: MediaRef[] = [];
  const result: ParsedSend = { to, waId, ...(given === undefined ? { recipient } : {}), type, content, contextMessageId, bizOpaqueCallbackData, mediaRefs: media };

  if (type === 'text') {
    text(content, 'body', "text['body']", { required: true, max: 4096 });
    if (content.preview_url !== undefined && typeof content.preview_url !== 'boolean') throw badParam("Param text['preview_url'] must be a boolean.");
  } else if ((mediaKinds as readonly string[]).includes(type)) {
    media.push(parseMediaObject(type as MediaKind, content, type, true));
  } else if (type === 'template') {
    result.template = parseTemplate(content, media);
  } else if (type === 'interactive') {
    const itype = text(content, 'type', "interactive['type']", { required: true })!;
    if (itype === 'list') parseList(content);
    else if (itype === 'button') parseButtons(content, media);
    else if (itype === 'flow') result.flow = parseFlow(content, media);
    else throw badParam(`Param interactive['type'] '${itype}' is not supported by this sandbox (list, button, flow).`);
  } else {
    throw badParam(`Param type '${type}' is not a supported message type.`);
  }
  return result;
}
