import { createElement } from 'react';

export function AudiencePage() {
  return createElement('div', { className: 'p-6' }, 'Audience');
}
