import { Link } from '@tanstack/react-router';
import { BellOff, Mail, MapPin, MessageSquare, Phone, X } from 'lucide-react';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { Attribute, Contact } from '@shared/schemas/entities';
import { Avatar } from '../../../components/ui/avatar';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { Switch } from '../../../components/ui/switch';
import { TruncatedText } from '../../../components/ui/tooltip';
import { cn } from '../../../lib/cn';
import { errorText } from '../../../lib/api-client';
import { useOfflineReason } from '../../../lib/connectivity';
import { useAttributes } from '../../../lib/queries/attributes';
import { useContactConversations } from '../api/list-contact-conversations';
import { usePatchContact } from '../../audience/api/patch-contact';
import { formatListTime } from '../utils/format';
import { messagePreview } from '../utils/message-content';

type Values = Record<string, string | boolean>;

function toFormValue(a: Attribute, v: Contact['attributes'][string] | undefined): string | boolean {
  if (a.format === 'boolean') return v === true || v === 'true';
  return v === null || v === undefined ? '' : String(v);
}

function fromFormValue(a: Attribute, v: string | boolean): string | number | boolean | null {
  if (a.format === 'boolean') return !!v;
  const s = String(v).trim();
  if (s === '') return null;
  if (a.format === 'number') return Number(s);
  return s;
}

/** The contact's details and attributes (editable by format) and its other conversations. */
export function ContactSidebar({
  contact,
  conversationId,
  workspaceId,
  onClose,
  className,
}: {
  contact: Contact;
  conversationId: string;
  workspaceId: string;
  onClose?: () => void;
  className?: string;
}) {
  const attributes = useAttributes(workspaceId);
  const contactAttributes = (attributes.data ?? []).filter((a) => a.type === 'contact');
  const others = useContactConversations(contact.id);
  const patch = usePatchContact(workspaceId);
  const offline = useOfflineReason();

  const defaults = (): Values => Object.fromEntries(contactAttributes.map((a) => [a.name, toFormValue(a, contact.attributes[a.name])]));
  const form = useForm<Values>({ defaultValues: defaults() });
  const defaultsKey = JSON.stringify(defaults());
  useEffect(() => {
    // New data from the server (a save, another agent, the event stream) replaces untouched fields.
    form.reset(JSON.parse(defaultsKey) as Values, { keepDirtyValues: true });
  }, [defaultsKey, form]);

  const save = form.handleSubmit(async (values) => {
    const changed = contactAttributes.filter((a) => form.formState.dirtyFields[a.name]);
    if (!changed.length) return;
    try {
      await patch.mutateAsync({ contactId: contact.id, body: { attributes: Object.fromEntries(changed.map((a) => [a.name, fromFormValue(a, values[a.name])])) } });
      form.reset(values);
    } catch {
      // Toasted (`status: message`); the edits stay for another try.
    }
  });

  return (
    <aside aria-label="Contact" className={cn('flex h-full w-80 shrink-0 flex-col overflow-y-auto border-l border-border bg-surface', className)}>
      <div className="flex items-center justify-between px-4 pt-3">
        <h2 className="text-[13px] font-semibold text-fg-muted">Contact</h2>
        {onClose && (
          <Button variant="ghost" size="icon-sm" onClick={onClose} aria-label="Hide contact details">
            <X />
          </Button>
        )}
      </div>
      <div className="flex flex-col items-center gap-2 px-4 pt-2 pb-4 text-center">
        <Avatar name={contact.name ?? contact.phoneNumber.slice(-2)} className="size-16 text-lg" />
        <div className="w-full min-w-0">
          <TruncatedText as="p" text={contact.name || contact.phoneNumber} className="text-[15px] font-semibold text-fg" />
          {contact.tags.length > 0 && (
            <div className="mt-1 flex flex-wrap justify-center gap-1">
              {contact.tags.map((t) => (
                <Badge key={t}>{t}</Badge>
              ))}
            </div>
          )}
        </div>
      </div>
      <dl className="flex flex-col gap-2 border-t border-border px-4 py-3 text-[13px]">
        <div className="flex items-center gap-2">
          <dt>
            <Phone className="size-4 text-fg-subtle" aria-label="Phone number" />
          </dt>
          <dd className="font-mono text-[12.5px]">{contact.phoneNumber}</dd>
        </div>
        <div className="flex items-center gap-2">
          <dt>
            <Mail className="size-4 text-fg-subtle" aria-label="E-mail" />
          </dt>
          <dd className={contact.email ? '' : 'text-fg-subtle'}>{contact.email ?? 'No e-mail'}</dd>
        </div>
        {(contact.city || contact.country) && (
          <div className="flex items-center gap-2">
            <dt>
              <MapPin className="size-4 text-fg-subtle" aria-label="Location" />
            </dt>
            <dd>{[contact.city, contact.country].filter(Boolean).join(', ')}</dd>
          </div>
        )}
      </dl>
      {/* Issue 17 (opt-out): campaigns skip an opted-out contact; live chat still works; an agent can reverse it. */}
      <div className="flex items-center justify-between gap-2 border-t border-border px-4 py-3 text-[13px]">
        <span className="flex items-center gap-2">
          <BellOff className="size-4 text-fg-subtle" aria-hidden />
          {contact.optedOut ? <Badge tone="amber">Opted out of campaigns</Badge> : <span className="text-fg-muted">Receives campaigns</span>}
        </span>
        <Button
          variant="link"
          size="sm"
          disabled={!!offline || patch.isPending}
          title={offline ?? undefined}
          onClick={() => patch.mutate({ contactId: contact.id, body: { optedOut: !contact.optedOut } })}
        >
          {contact.optedOut ? 'Opt back in' : 'Opt out'}
        </Button>
      </div>

      <form onSubmit={save} className="border-t border-border px-4 py-3" aria-label="Attributes">
        <h3 className="mb-2 text-[12px] font-semibold tracking-wide text-fg-subtle uppercase">Attributes</h3>
        {attributes.isPending ? (
          <div className="flex flex-col gap-2">
            <Skeleton className="h-8" />
            <Skeleton className="h-8" />
          </div>
        ) : attributes.isError ? (
          <p className="text-[13px] text-danger">{errorText(attributes.error)}</p>
        ) : contactAttributes.length === 0 ? (
          <p className="text-[13px] text-fg-muted">No contact attributes yet. Admins add them under Settings → Attributes.</p>
        ) : (
          <div className="flex flex-col gap-2.5">
            {contactAttributes.map((a) => {
              const id = `attr-${a.id}`;
              return (
                <div key={a.id} className="flex items-center gap-2">
                  <label htmlFor={id} className="w-28 shrink-0 truncate text-[13px] text-fg-muted" title={a.description ?? a.name}>
                    {a.name}
                  </label>
                  {a.format === 'boolean' ? (
                    <Controller
                      control={form.control}
                      name={a.name}
                      render={({ field }) => (
                        <Switch id={id} checked={!!field.value} onCheckedChange={(v) => field.onChange(v)} aria-label={a.name} />
                      )}
                    />
                  ) : (
                    <Input
                      id={id}
                      type={a.format === 'number' ? 'number' : 'text'}
                      step={a.format === 'number' ? 'any' : undefined}
                      placeholder="Empty"
                      {...form.register(a.name)}
                    />
                  )}
                </div>
              );
            })}
            {form.formState.isDirty && (
              <div className="flex justify-end gap-2 pt-1">
                <Button variant="ghost" size="sm" onClick={() => form.reset(defaults())}>
                  Cancel
                </Button>
                <Button type="submit" size="sm" loading={patch.isPending} disabled={!!offline} title={offline ?? undefined}>
                  Save
                </Button>
              </div>
            )}
          </div>
        )}
      </form>

      <section className="border-t border-border px-4 py-3" aria-label="Other conversations">
        <h3 className="mb-2 text-[12px] font-semibold tracking-wide text-fg-subtle uppercase">Other conversations</h3>
        {others.isPending ? (
          <Skeleton className="h-10" />
        ) : others.isError ? (
          <p className="text-[13px] text-danger">{errorText(others.error)}</p>
        ) : (
          (() => {
            const list = others.data.items.filter((c) => c.id !== conversationId);
            if (!list.length) return <p className="text-[13px] text-fg-muted">None.</p>;
            return (
              <ul className="flex flex-col gap-1">
                {list.map((c) => (
                  <li key={c.id}>
                    <Link
                      to="/live-chat/$conversationId"
                      params={{ conversationId: c.id }}
                      search={{ tab: c.isActive ? 'open' : 'closed' }}
                      className="flex items-start gap-2 rounded-md px-2 py-1.5 hover:bg-subtle"
                    >
                      <MessageSquare className="mt-0.5 size-4 shrink-0 text-fg-subtle" aria-hidden />
                      <span className="min-w-0 flex-1">
                        <span className="flex items-center gap-2 text-[12px]">
                          <Badge tone={c.isActive ? 'green' : 'neutral'}>{c.isActive ? 'Open' : 'Closed'}</Badge>
                          <span className="ml-auto text-fg-subtle">{formatListTime(c.lastMessageAt ?? c.createdAt)}</span>
                        </span>
                        <span className="mt-0.5 block truncate text-[13px] text-fg-muted">
                          {c.lastMessage ? messagePreview(c.lastMessage) : 'No messages'}
                        </span>
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            );
          })()
        )}
      </section>
    </aside>
  );
}
