/** The template editor's Body: the message with an example for each {{n}}, and the footer. */
import { Card, CardHeader } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input, Textarea } from '../../../components/ui/input';
import type { TemplateCardProps } from './template-card-props';
import { variablesOf } from './template-form';

export function TemplateBodyCard({ form, values }: TemplateCardProps) {
  const { errors } = form.formState;
  const bodyVars = variablesOf(values.body ?? '');
  return (
    <Card>
      <CardHeader title="Body" description="Use {{1}}, {{2}} ... for values that change per message." />
      <div className="flex flex-col gap-4 p-5">
        <FormField label="Message" error={errors.body?.message} hint={`${(values.body ?? '').length} / 1024`}>
          <Textarea rows={5} placeholder="Hi {{1}}, your order {{2}} is on its way." {...form.register('body')} />
        </FormField>
        {bodyVars.length > 0 && (
          <div className="grid grid-cols-2 gap-4">
            {bodyVars.map((n, i) => (
              <FormField key={n} label={`Example for {{${n}}}`} error={errors.bodyExamples?.[i]?.message}>
                <Input {...form.register(`bodyExamples.${i}`)} />
              </FormField>
            ))}
          </div>
        )}
        <FormField label="Footer" optional error={errors.footer?.message}>
          <Input placeholder="Reply STOP to opt out" {...form.register('footer')} />
        </FormField>
      </div>
    </Card>
  );
}
