/** Template languages WhatsApp supports that teams use most (code as WhatsApp spells it). */
export const templateLanguages = [
  { value: 'en_US', label: 'English (US)' },
  { value: 'en_GB', label: 'English (UK)' },
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Spanish' },
  { value: 'es_MX', label: 'Spanish (MEX)' },
  { value: 'pt_BR', label: 'Portuguese (BR)' },
  { value: 'fr', label: 'French' },
  { value: 'de', label: 'German' },
  { value: 'it', label: 'Italian' },
  { value: 'nl', label: 'Dutch' },
  { value: 'id', label: 'Indonesian' },
  { value: 'hi', label: 'Hindi' },
  { value: 'ar', label: 'Arabic' },
  { value: 'tr', label: 'Turkish' },
] as const;

export function languageName(code: string): string {
  return templateLanguages.find((l) => l.value === code)?.label ?? code;
}
