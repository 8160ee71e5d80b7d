import { createElement } from 'react';

export function LiveChatPage() {
  return createElement('div', { className: 'p-6' }, 'Live chat');
}

export function ConversationPage() {
  return createElement('div', { className: 'p-6' }, 'Live chat');
}
