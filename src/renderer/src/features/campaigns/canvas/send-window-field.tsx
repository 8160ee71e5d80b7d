import { zodResolver } from '@hookform/resolvers/zod';
import { Moon } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { SendWindow } from '@shared/schemas/campaign-canvas';
import { Input } from '../../../components/ui/input';
import { Switch } from '../../../components/ui/switch';

export const defaultSendWindow: SendWindow = { start: '09:00', end: '20:00' };

/**
 * The trigger's daily send window (quiet hours, an addition): sends and delays that fall due outside
 * it wait for its next start, in each customer's own time zone. Checked by the shared `SendWindow` schema (the
 * server's); only a valid window reaches the node's data, so an autosave never carries a broken one.
 */
export function SendWindowField({
  value,
  readOnly,
  onChange,
}: {
  value: SendWindow | null | undefined;
  readOnly: boolean;
  onChange: (window: SendWindow | null) => void;
}) {
  const id = useId();
  const on = !!value;
  const form = useForm<SendWindow>({ resolver: zodResolver(SendWindow), mode: 'onChange', values: value ?? defaultSendWindow });
  const { errors } = form.formState;
  const commit = async () => {
    if (await form.trigger()) onChange(form.getValues());
  };
  const field = (name: 'start' | 'end', label: string) => {
    const error = errors[name]?.message;
    return (
      <div className="flex flex-1 flex-col gap-1">
        <label htmlFor={`${id}-${name}`} className="text-[11px] text-fg-muted">
          {label}
        </label>
        <Input
          id={`${id}-${name}`}
          className="h-7 text-xs tabular-nums"
          inputMode="numeric"
          placeholder={defaultSendWindow[name]}
          maxLength={5}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-${name}-error` : undefined}
          {...form.register(name, { onChange: () => void commit() })}
        />
        {error && (
          <p id={`${id}-${name}-error`} className="text-[11px] text-danger">
            {label}: {error}
          </p>
        )}
      </div>
    );
  };
  const { start, end } = value ?? defaultSendWindow;
  return (
    <fieldset className="flex flex-col gap-1.5 border-t border-border pt-2" disabled={readOnly}>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={`${id}-on`} className="flex items-center gap-1.5 text-xs font-medium text-fg">
          <Moon className="size-3.5 text-fg-subtle" aria-hidden />
          Only send during the day
        </label>
        <Switch id={`${id}-on`} checked={on} disabled={readOnly} onCheckedChange={(checked) => onChange(checked ? (value ?? defaultSendWindow) : null)} />
      </div>
      {on ? (
        <>
          <div className="flex items-start gap-2">
            {field('start', 'Window start')}
            {field('end', 'Window end')}
          </div>
          <p className="text-[11px] text-fg-subtle">
            {start === end
              ? 'Start and end are the same time: sends go at any hour.'
              : `Each customer gets messages between ${start} and ${end} in their own time zone${start > end ? ' (overnight)' : ''}; anything due outside waits for ${start}. Customers without a known zone use the workspace's (Settings › Campaigns).`}
          </p>
        </>
      ) : (
        <p className="text-[11px] text-fg-subtle">Sends go at any hour. Turn on to keep messages within daytime hours.</p>
      )}
    </fieldset>
  );
}
