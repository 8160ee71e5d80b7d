import type { UseFormReturn } from 'react-hook-form';
import type { TemplateFormValues } from './template-form';

/** What every card of the template editor works on: the form and its watched values. */
export interface TemplateCardProps {
  form: UseFormReturn<TemplateFormValues>;
  values: TemplateFormValues;
}
