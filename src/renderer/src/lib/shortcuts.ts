/**
 * Keyboard shortcuts: one table, read by the `?` sheet and by the handlers, so what the sheet says is what the
 * keys do. Shortcuts never fire while the user types in a field (input, textarea, select, contenteditable), and
 * never with a dialog or menu open: those own their keys.
 */

export interface ShortcutDef {
  id: ShortcutId;
  /** What the sheet shows, e.g. ['J'] or ['Ctrl', 'K']. */
  keys: string[];
  label: string;
  /** Where the same thing is done without the keyboard shortcut. */
  without: string;
  group: 'Anywhere' | 'Live chat' | 'Campaign and bot canvas';
}

export type ShortcutId =
  | 'switcher'
  | 'sheet'
  | 'next'
  | 'previous'
  | 'closeNext'
  | 'assignMe'
  | 'composer'
  | 'canvasAddStep'
  | 'canvasSelectAll'
  | 'canvasBoxSelect'
  | 'canvasCopyPaste'
  | 'canvasUndo'
  | 'canvasDelete';

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const mod = isMac ? '⌘' : 'Ctrl';
const alt = isMac ? '⌥' : 'Alt';
const canvas = 'Campaign and bot canvas' as const;

export const shortcuts: ShortcutDef[] = [
  { id: 'switcher', keys: [mod, 'K'], label: 'Go to a conversation, contact or screen', without: 'the "Go to…" button of the sidebar', group: 'Anywhere' },
  { id: 'sheet', keys: ['?'], label: 'Show keyboard shortcuts', without: 'the keyboard button of the sidebar', group: 'Anywhere' },
  { id: 'next', keys: ['J'], label: 'Next conversation', without: 'the conversation list (or ↓ in it)', group: 'Live chat' },
  { id: 'previous', keys: ['K'], label: 'Previous conversation', without: 'the conversation list (or ↑ in it)', group: 'Live chat' },
  { id: 'closeNext', keys: ['E'], label: 'Close and go to the next conversation', without: 'the conversation menu: "Close and open next"', group: 'Live chat' },
  { id: 'assignMe', keys: ['A'], label: 'Assign the conversation to me', without: 'the Assign menu: "Assign to me"', group: 'Live chat' },
  { id: 'composer', keys: ['R'], label: 'Write a reply (focus the composer)', without: 'click the message box', group: 'Live chat' },
  // The canvas handles these itself (components/canvas/shortcuts.ts); they are listed here so the sheet shows them.
  { id: 'canvasAddStep', keys: [alt, 'A'], label: 'Back to "Add a step" (Enter adds after the selected step)', without: 'the "Add a step" list beside the canvas', group: canvas },
  { id: 'canvasSelectAll', keys: [mod, 'A'], label: 'Select every step', without: 'Shift+drag around the steps', group: canvas },
  { id: 'canvasBoxSelect', keys: ['Shift', 'drag'], label: 'Select the steps inside a box', without: `${mod}+click each step`, group: canvas },
  { id: 'canvasCopyPaste', keys: [mod, 'C / V'], label: 'Copy and paste the selected steps (a trigger or Start is never doubled)', without: 'add the steps from "Add a step"', group: canvas },
  { id: 'canvasUndo', keys: [mod, 'Z'], label: 'Undo (with Shift: redo)', without: 'the Undo and Redo buttons above the canvas', group: canvas },
  { id: 'canvasDelete', keys: ['Delete'], label: 'Delete the selected steps', without: 'the delete button of the step list', group: canvas },
];

/** True when the key belongs to what the user is typing in (or to an open dialog or menu). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return true;
  return !!target.closest('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]');
}

/** Which shortcut a key press is, or null. Plain-letter shortcuts need no modifier (Shift only for `?`). */
export function shortcutOf(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'target'>): ShortcutId | null {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  // The switcher works from inside fields too (the way every product's Ctrl/Cmd+K does).
  if (key === 'k' && (isMac ? e.metaKey : e.ctrlKey) && !e.altKey && !e.shiftKey) return 'switcher';
  if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return null;
  if (key === '?') return 'sheet';
  if (e.shiftKey) return null;
  const plain: Record<string, ShortcutId> = { j: 'next', k: 'previous', e: 'closeNext', a: 'assignMe', r: 'composer' };
  return plain[key] ?? null;
}
