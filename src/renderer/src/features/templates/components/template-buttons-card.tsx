/** The template editor's Buttons: up to 10 quick replies, website links or phone numbers. */
import { Plus, X } from 'lucide-react';
import type { UseFieldArrayReturn } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Input, NativeSelect } from '../../../components/ui/input';
import type { TemplateCardProps } from './template-card-props';
import { type TemplateFormValues, buttonTypes } from './template-form';

const buttonLabels = { QUICK_REPLY: 'Quick reply', URL: 'Visit website', PHONE_NUMBER: 'Call phone number' } as const;

export function TemplateButtonsCard({ form, values, buttons }: TemplateCardProps & { buttons: UseFieldArrayReturn<TemplateFormValues, 'buttons'> }) {
  const { errors } = form.formState;
  return (
    <Card>
      <CardHeader title="Buttons" description="Up to 10: quick replies, a website link or a phone number." />
      <div className="flex flex-col gap-3 p-5">
        <div className="flex flex-wrap gap-2">
          {buttonTypes.map((t) => (
            <Button
              key={t}
              variant="secondary"
              size="sm"
              disabled={buttons.fields.length >= 10}
              onClick={() => buttons.append({ type: t, text: '', url: '', phone_number: '' })}
            >
              <Plus /> {buttonLabels[t]}
            </Button>
          ))}
        </div>
        {buttons.fields.map((f, i) => {
          const type = values.buttons?.[i]?.type;
          return (
            <div key={f.id} className="flex items-start gap-2" role="group" aria-label={`Button ${i + 1}`}>
              <NativeSelect aria-label={`Button ${i + 1} type`} className="w-44" {...form.register(`buttons.${i}.type`)}>
                {buttonTypes.map((t) => (
                  <option key={t} value={t}>
                    {buttonLabels[t]}
                  </option>
                ))}
              </NativeSelect>
              <div className="flex-1">
                <Input aria-label={`Button ${i + 1} text`} placeholder="Button text" {...form.register(`buttons.${i}.text`)} aria-invalid={!!errors.buttons?.[i]?.text} />
                {errors.buttons?.[i]?.text && <p role="alert" className="mt-1 text-xs text-danger">{errors.buttons[i]?.text?.message}</p>}
              </div>
              {type === 'URL' && (
                <div className="flex-1">
                  <Input aria-label={`Button ${i + 1} URL`} placeholder="https://example.com" {...form.register(`buttons.${i}.url`)} aria-invalid={!!errors.buttons?.[i]?.url} />
                  {errors.buttons?.[i]?.url && <p role="alert" className="mt-1 text-xs text-danger">{errors.buttons[i]?.url?.message}</p>}
                </div>
              )}
              {type === 'PHONE_NUMBER' && (
                <div className="flex-1">
                  <Input aria-label={`Button ${i + 1} phone number`} placeholder="+1 650 555 0100" {...form.register(`buttons.${i}.phone_number`)} aria-invalid={!!errors.buttons?.[i]?.phone_number} />
                  {errors.buttons?.[i]?.phone_number && (
                    <p role="alert" className="mt-1 text-xs text-danger">{errors.buttons[i]?.phone_number?.message}</p>
                  )}
                </div>
              )}
              <Button variant="ghost" size="icon" aria-label={`Remove button ${i + 1}`} onClick={() => buttons.remove(i)}>
                <X />
              </Button>
            </div>
          );
        })}
      </div>
    </Card>
  );
}
