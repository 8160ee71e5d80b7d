/**
 * The recurring trigger, POST /outbound/{campaignId}: each record upserts its contact by phone (E.164 in the
 * workspace's default country) with its mapped attributes, and the chain runs for it (a run per call). A bad
 * phone rejects that record only. 409 unless the campaign is active (a paused one queues nothing).
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { z } from 'zod';
import type { CampaignDraftRfInstance } from '../../shared/schemas/campaign-canvas';
import type { OutboundResult } from '../../shared/schemas/entities';
import { ownValue } from '../../shared/own-value';
import { conflict, notFound } from '../errors';
import { lockCampaign } from '../repositories/campaigns';
import { type TriggerPerson, triggerFactsOf, upsertTriggerContacts } from '../repositories/campaign-contacts';
import { insertRunWithRecipients, lockRecipientWrites } from '../repositories/campaign-runs';
import type { CampaignKeyContext } from '../services/caller';
import type { ServiceDeps } from '../services/context';
import { type DeployedCanvas, readDeployedCanvas } from './deployed-canvas';
import type { CampaignRunner } from './runner';

/** Keys of a trigger record that name the contact's phone number and name when no mapping row does. */
const phoneKeys = ['phone', 'phoneNumber', 'phone_number', 'mobile'];
const nameKeys = ['name', 'fullName', 'full_name'];

type Results = z.input<typeof OutboundResult>['results'];
interface Person {
  index: number;
  phoneNumber: string;
  name: string | null;
  attributes: Record<string, string>;
}

/** One record as a person to reach, or the reason it is rejected. */
function personOf(
  record: Record<string, string>,
  index: number,
  canvas: DeployedCanvas,
  attributeNames: Map<string, string>,
  country: string,
): Person | { rejected: string } {
  const attributes: Record<string, string> = {};
  let phone: string | undefined;
  let name: string | null = null;
  for (const m of canvas.attributeMapping) {
    const value = ownValue(record, m.objectKey);
    if (value === undefined) continue;
    if (m.attributeId === 'phoneNumber') phone = value;
    else if (m.attributeId === 'name') name = value;
    else if (attributeNames.has(m.attributeId)) attributes[attributeNames.get(m.attributeId)!] = value;
  }
  phone ??= phoneKeys.map((k) => record[k]).find((v) => v !== undefined);
  name ??= nameKeys.map((k) => record[k]).find((v) => v !== undefined) ?? null;
  const parsed = phone ? parsePhoneNumberFromString(phone, country as CountryCode) : undefined;
  if (!parsed?.isValid()) return { rejected: phone ? `Not a valid phone number: ${phone}` : 'The record has no phone number' };
  return { index, phoneNumber: parsed.number, name: name?.trim() || null, attributes };
}

/**
 * One person per phone number (a call may name a number twice): the first name given, the attributes merged in
 * record order (a later record's value wins), as if the records had been applied one after the other.
 */
function onePerPhone(people: Person[]): TriggerPerson[] {
  const byPhone = new Map<string, TriggerPerson>();
  for (const p of people) {
    const seen = byPhone.get(p.phoneNumber);
    if (!seen) byPhone.set(p.phoneNumber, { phoneNumber: p.phoneNumber, name: p.name, attributes: { ...p.attributes } });
    else byPhone.set(p.phoneNumber, { ...seen, name: seen.name ?? p.name, attributes: { ...seen.attributes, ...p.attributes } });
  }
  return [...byPhone.values()];
}

const inactive = (status: string) => `This campaign is ${status}; only an active campaign can be triggered`;

export function campaignTriggerService(d: Pick<ServiceDeps, 'db'>, runner: Pick<CampaignRunner, 'wake'>) {
  const ex = () => d.db.db;

  /**
   * Upserts the people's contacts and, when the chain has a first step, queues them in a new run; only while the
   * campaign is active, read under a lock in this transaction (a pause answered before it commits queues nothing).
   * Set-based: one statement for the contacts, one for the run and its recipients, whatever the call's size.
   */
  function queue(workspaceId: string, campaignId: string, first: string | null | undefined, people: Person[]): Promise<string[]> {
    return d.db.transaction(async (tx) => {
      const row = await lockCampaign(tx, workspaceId, campaignId, 'share');
      if (!row) throw notFound('Campaign not found');
      if (row.status !== 'active') throw conflict(inactive(row.status));
      await lockRecipientWrites(tx, workspaceId);
      const byPhone = await upsertTriggerContacts(tx, workspaceId, onePerPhone(people));
      const ids = people.map((p) => byPhone.get(p.phoneNumber)!);
      if (first && ids.length > 0) await insertRunWithRecipients(tx, { workspaceId, campaignId, stepId: first, contactIds: [...new Set(ids)] });
      return ids;
    });
  }

  return {
    async trigger(ctx: CampaignKeyContext, id: string, records: Record<string, string>[]): Promise<z.input<typeof OutboundResult>> {
      const facts = await triggerFactsOf(ex(), ctx.workspaceId, id);
      if (!facts) throw notFound('Campaign not found');
      const { campaign: c, country, attributeNames } = facts;
      if (c.type !== 'recurring') throw conflict('Only a recurring campaign is triggered by records');
      if (c.status !== 'active') throw conflict(inactive(c.status));
      const canvas = readDeployedCanvas(c.deployedRf as CampaignDraftRfInstance);
      const results: Results = [];
      const people: Person[] = [];
      records.forEach((record, index) => {
        const person = personOf(record, index, canvas, attributeNames, country);
        if ('rejected' in person) results.push({ index, status: 'rejected', contactId: null, reason: person.rejected });
        else people.push(person);
      });
      // Nothing to queue (every record rejected): the status read above answered for this call, no lock needed.
      const contactIds = people.length > 0 ? await queue(ctx.workspaceId, id, canvas.first, people) : [];
      people.forEach((p, i) => results.push({ index: p.index, status: 'queued', contactId: contactIds[i], reason: null }));
      results.sort((a, b) => a.index - b.index);
      runner.wake();
      return { success: true, queued: people.length, rejected: records.length - people.length, results };
    },
  };
}
