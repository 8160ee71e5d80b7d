/**
 * Message templates: creation with Meta's component rules, the delayed review (PENDING, then APPROVED or
 * REJECTED with its status webhook), listing, deletion, the checks a template send must pass, and the samples
 * (flows and hello_world) every new WABA starts with.
 */
import { templateVariables as placeholders } from '../shared/template-variables';
import type { SandboxAccount } from './account';
import { SandboxGraphError, badParam, invalid, missing } from './graph-error';
import { type SandboxState, type SandboxTemplate, type TemplateStatus, graphId, stableId } from './state';
import { type Obj, type ParsedSend, isObj } from './validate';

export class TemplateRegistry {
  constructor(private readonly state: SandboxState) {}

  createTemplate(account: SandboxAccount, body: unknown): object {
    if (!isObj(body)) throw badParam('The request body must be a JSON object.');
    const name = body.name;
    if (typeof name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(name)) {
      throw badParam('Param name must be at most 512 characters of lowercase letters, digits and underscores.', );
    }
    if (typeof body.language !== 'string' || !/^[a-z]{2,3}(_[A-Z]{2})?$/.test(body.language)) throw badParam('Param language must be a language code such as en_US.');
    const category = body.category;
    if (typeof category !== 'string' || !['AUTHENTICATION', 'UTILITY', 'MARKETING'].includes(category)) {
      throw badParam('Param category must be one of AUTHENTICATION, UTILITY, MARKETING.');
    }
    const parameterFormat = body.parameter_format === undefined ? 'POSITIONAL' : body.parameter_format;
    if (parameterFormat !== 'POSITIONAL' && parameterFormat !== 'NAMED') throw badParam('Param parameter_format must be POSITIONAL or NAMED.');
    if (!Array.isArray(body.components) || !body.components.every(isObj)) throw badParam('Param components must be an array of objects.');
    const components = body.components as Obj[];
    this.checkTemplateComponents(components, parameterFormat);
    if (this.state.templates.some((t) => t.wabaId === account.wabaAccountId && t.name === name && t.language === body.language)) {
      throw new SandboxGraphError(100, `Content in this language already exists for template ${name}.`, {
        subcode: 2388024,
        message: 'Message template already exists',
      });
    }
    const t: SandboxTemplate = {
      id: graphId(),
      wabaId: account.wabaAccountId,
      name,
      language: body.language,
      category,
      status: 'PENDING',
      parameterFormat,
      components: structuredClone(components),
    };
    this.state.templates.push(t);
    this.state.save();
    this.state.track(
      (async () => {
        await this.state.wait(this.state.opts.templateReviewDelayMs ?? 2000);
        if (this.state.closed || !this.state.templates.includes(t) || t.status !== 'PENDING') return;
        const outcome = this.state.opts.reviewTemplate?.(t) ?? (t.name.includes('reject') ? { status: 'REJECTED' as const, reason: 'INVALID_FORMAT' } : { status: 'APPROVED' as const });
        await this.setTemplateStatus(t, outcome.status, outcome.status === 'REJECTED' ? outcome.reason : undefined);
      })(),
    );
    return { id: t.id, status: t.status, category: t.category };
  }

  private checkTemplateComponents(components: Obj[], format: 'POSITIONAL' | 'NAMED'): void {
    const of = (type: string) => components.filter((c) => c.type === type);
    for (const c of components) {
      if (!['HEADER', 'BODY', 'FOOTER', 'BUTTONS'].includes(String(c.type))) throw badParam(`Param components: unknown component type ${String(c.type)}.`);
    }
    for (const type of ['HEADER', 'BODY', 'FOOTER', 'BUTTONS']) {
      if (of(type).length > 1) throw badParam(`Param components must contain at most one ${type}.`);
    }
    const body = of('BODY')[0];
    if (!body || typeof body.text !== 'string' || body.text.trim() === '') throw badParam('Param components must contain a BODY with text.');
    if ([...body.text].length > 1024) throw invalid('Param components BODY text must be at most 1024 characters long.');
    const example = isObj(body.example) ? body.example : {};
    const vars = placeholders(body.text);
    if (vars.length > 0) {
      if (format === 'POSITIONAL') {
        const rows = example.body_text;
        if (!Array.isArray(rows) || !Array.isArray(rows[0]) || rows[0].length !== vars.length) {
          throw invalid(`Param components BODY needs example.body_text with one array of ${vars.length} sample values.`);
        }
        if (vars.some((v, i) => v !== String(i + 1))) throw invalid('Param components BODY positional variables must be {{1}}, {{2}}, ... in order.');
      } else {
        const named = Array.isArray(example.body_text_named_params) ? (example.body_text_named_params as Obj[]) : [];
        const names = named.map((n) => n.param_name);
        if (vars.some((v) => !names.includes(v))) throw invalid('Param components BODY needs example.body_text_named_params for every named variable.');
      }
    }
    const header = of('HEADER')[0];
    if (header) {
      const hf = String(header.format);
      const hex = isObj(header.example) ? header.example : {};
      if (hf === 'TEXT') {
        if (typeof header.text !== 'string' || header.text === '' || [...header.text].length > 60) throw invalid('Param components HEADER text must be 1 to 60 characters long.');
        const hv = placeholders(header.text);
        if (hv.length > 1) throw invalid('Param components HEADER text can have at most 1 variable.');
        if (hv.length === 1 && !(Array.isArray(hex.header_text) || Array.isArray(hex.header_text_named_params))) {
          throw invalid('Param components HEADER needs example.header_text for its variable.');
        }
      } else if (['IMAGE', 'VIDEO', 'DOCUMENT'].includes(hf)) {
        const h = Array.isArray(hex.header_handle) ? hex.header_handle : [];
        if (h.length === 0) throw invalid(`Param components HEADER of format ${hf} needs example.header_handle from the Resumable Upload API.`);
        if (!h.every((x) => typeof x === 'string' && this.state.handles.has(x))) throw invalid('Param components HEADER example.header_handle is not a valid upload handle.');
      } else if (hf !== 'LOCATION') {
        throw badParam('Param components HEADER format must be TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION.');
      }
    }
    const footer = of('FOOTER')[0];
    if (footer && (typeof footer.text !== 'string' || [...footer.text].length > 60)) throw invalid('Param components FOOTER text must be at most 60 characters long.');
    const buttonsC = of('BUTTONS')[0];
    if (buttonsC) {
      const buttons = Array.isArray(buttonsC.buttons) ? (buttonsC.buttons as Obj[]) : [];
      if (buttons.length < 1 || buttons.length > 10) throw invalid('Param components BUTTONS must have 1 to 10 buttons.');
      const count = (type: string) => buttons.filter((b) => b.type === type).length;
      if (count('URL') > 2 || count('PHONE_NUMBER') > 1 || count('COPY_CODE') > 1) {
        throw invalid('Param components BUTTONS allows at most 2 URL, 1 PHONE_NUMBER and 1 COPY_CODE buttons.');
      }
      for (const b of buttons) {
        if (typeof b.text !== 'string' || b.text === '' || [...b.text].length > 25) throw invalid('Param components BUTTONS text must be 1 to 25 characters long.');
      }
      // Quick replies must form one group, before or after the other buttons, not interleaved with them.
      const kinds = buttons.map((b) => (b.type === 'QUICK_REPLY' ? 'q' : 'o')).join('');
      if (/q+o+q+|o+q+o+/.test(kinds)) throw invalid('Param components BUTTONS: quick reply buttons must be grouped together.');
    }
  }

  /** `webhook: false`: Meta changed it but its webhook has not come (sends meet the new status first). */
  async setTemplateStatus(t: SandboxTemplate, status: TemplateStatus, reason?: string, opts: { webhook?: boolean } = {}): Promise<void> {
    // A pause, and the approval that lifts it, say which in `other_info` (reference section 6).
    const pauseInfo = status === 'PAUSED' ? 'FIRST_PAUSE' : status === 'APPROVED' && t.status === 'PAUSED' ? 'UNPAUSE' : undefined;
    t.status = status;
    t.rejectedReason = status === 'REJECTED' ? (reason ?? 'INVALID_FORMAT') : undefined;
    this.state.save();
    const account = [...this.state.accounts.values()].find((a) => a.wabaAccountId === t.wabaId)!;
    if (opts.webhook === false) {
      this.state.log(`template ${t.name} (${t.language}) of ${account.verifiedName}: ${status}, no webhook`);
      return;
    }
    await this.state.webhooks.push(t.wabaId, 'message_template_status_update', {
      event: status,
      message_template_id: Number(t.id),
      message_template_name: t.name,
      message_template_language: t.language,
      message_template_category: t.category,
      reason: status === 'REJECTED' ? t.rejectedReason : 'NONE',
      ...(pauseInfo ? { other_info: { title: pauseInfo, description: pauseInfo === 'UNPAUSE' ? 'The template is active again.' : 'The template was paused because of low quality.' } } : {}),
      ...(status === 'REJECTED' ? { rejection_info: { reason: t.rejectedReason, recommendation: 'Review the template guidelines and submit it again.' } } : {}),
    });
    this.state.log(`template ${t.name} (${t.language}) of ${account.verifiedName}: ${status}`);
  }

  listTemplates(account: SandboxAccount, query: Record<string, string | undefined>): SandboxTemplate[] {
    return this.state.templates.filter(
      (t) =>
        t.wabaId === account.wabaAccountId &&
        (!query.name || t.name.includes(query.name)) &&
        (!query.status || t.status === query.status.toUpperCase()) &&
        (!query.category || t.category === query.category.toUpperCase()) &&
        (!query.language || t.language === query.language),
    );
  }

  deleteTemplate(account: SandboxAccount, name: string | undefined, hsmId: string | undefined): object {
    if (!name) throw missing('The parameter name is required.');
    const doomed = this.state.templates.filter((t) => t.wabaId === account.wabaAccountId && t.name === name && (!hsmId || t.id === hsmId));
    if (doomed.length === 0) {
      throw new SandboxGraphError(100, `Message template "${name}"${hsmId ? ` with id ${hsmId}` : ''} was not found.`, { subcode: 2593002 });
    }
    if (doomed.some((t) => t.status === 'DISABLED')) throw badParam('Disabled templates cannot be deleted.');
    for (const t of doomed) this.state.templates.splice(this.state.templates.indexOf(t), 1);
    this.state.save();
    return { success: true };
  }

  /** A template send's checks: the template exists, is approved and gets the parameters it expects. */
  checkTemplate(account: SandboxAccount, p: ParsedSend): SandboxTemplate {
    const req = p.template!;
    const byName = this.state.templates.filter((t) => t.wabaId === account.wabaAccountId && t.name === req.name);
    const t = byName.find((x) => x.language === req.language);
    if (!t) {
      throw new SandboxGraphError(
        132001,
        byName.length === 0
          ? `template name (${req.name}) does not exist in ${req.language}`
          : `template name (${req.name}) does not exist in ${req.language}; it exists in ${byName.map((x) => x.language).join(', ')}`,
      );
    }
    if (t.status === 'PAUSED') throw new SandboxGraphError(132015, `Template ${t.name} is paused because of low quality.`);
    if (t.status === 'DISABLED') throw new SandboxGraphError(132016, `Template ${t.name} is disabled.`);
    if (t.status !== 'APPROVED') throw new SandboxGraphError(132001, `template name (${req.name}) in ${req.language} is not approved (status ${t.status})`);

    const given = (type: string) => req.components.filter((c) => c.type === type).flatMap((c) => c.parameters as Obj[]);
    const header = t.components.find((c) => c.type === 'HEADER');
    const body = t.components.find((c) => c.type === 'BODY');
    const expectations: { where: string; names: string[]; params: Obj[] }[] = [
      { where: 'body', names: placeholders(body?.text as string | undefined), params: given('body') },
    ];
    if (header) {
      const format = String(header.format ?? 'TEXT');
      expectations.push({
        where: 'header',
        names: format === 'TEXT' ? placeholders(header.text as string | undefined) : format === 'LOCATION' ? [] : [format.toLowerCase()],
        params: given('header'),
      });
    }
    for (const e of expectations) {
      if (e.names.length !== e.params.length) {
        throw new SandboxGraphError(132000, `${e.where}: number of localizable_params (${e.params.length}) does not match the expected number of params (${e.names.length})`);
      }
      if (t.parameterFormat === 'NAMED' && e.where !== 'header') {
        const names = e.params.map((x) => x.parameter_name);
        const missingNames = e.names.filter((n) => !names.includes(n));
        if (missingNames.length > 0) throw new SandboxGraphError(132000, `${e.where}: missing named parameters ${missingNames.join(', ')}`);
      }
    }
    const buttons = (t.components.find((c) => c.type === 'BUTTONS')?.buttons as Obj[] | undefined) ?? [];
    for (const c of req.components.filter((x) => x.type === 'button')) {
      const b = buttons[Number(c.index)];
      if (!b) throw new SandboxGraphError(132000, `button at index ${c.index} does not exist in template ${t.name}`);
    }
    return t;
  }

  /** Every new WABA gets Meta's sample flows and hello_world template. */
  /**
   * A template made outside Parley (WhatsApp Manager): stored at once with its status, no review, no webhook.
   * Components default to a one-line body.
   */
  seedTemplate(
    account: SandboxAccount,
    t: { name: string; language?: string; category?: string; status?: TemplateStatus; components?: Obj[] },
  ): SandboxTemplate {
    const template: SandboxTemplate = {
      id: graphId(),
      wabaId: account.wabaAccountId,
      name: t.name,
      language: t.language ?? 'en_US',
      category: t.category ?? 'UTILITY',
      status: t.status ?? 'APPROVED',
      parameterFormat: 'POSITIONAL',
      components: structuredClone(t.components ?? [{ type: 'BODY', text: `Made in WhatsApp Manager: ${t.name}` }]),
    };
    this.state.templates.push(template);
    this.state.save();
    return template;
  }

  seedWaba(wabaId: string): void {
    this.state.flows.push(
      { id: stableId(`${wabaId}:flow:1`), wabaId, name: 'Book an appointment', status: 'PUBLISHED', categories: ['APPOINTMENT_BOOKING'], validation_errors: [] },
      { id: stableId(`${wabaId}:flow:2`), wabaId, name: 'Customer feedback', status: 'DRAFT', categories: ['SURVEY'], validation_errors: [] },
    );
    // Meta gives every new WABA this approved sample template.
    if (this.state.templates.some((t) => t.wabaId === wabaId && t.name === 'hello_world')) return;
    this.state.templates.push({
      id: stableId(`${wabaId}:hello_world`),
      wabaId,
      name: 'hello_world',
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      parameterFormat: 'POSITIONAL',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hello World' },
        { type: 'BODY', text: 'Welcome and congratulations!! This message demonstrates your ability to send a WhatsApp message notification from the Cloud API, hosted by Meta. Thank you for taking the time to test with us.' },
        { type: 'FOOTER', text: 'WhatsApp Business Platform sample message' },
      ],
    });
  }
}
