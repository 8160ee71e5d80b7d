import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export type ThemeChoice = 'system' | 'light' | 'dark';

interface ThemeState {
  choice: ThemeChoice;
  setChoice: (c: ThemeChoice) => void;
}

export const useThemeStore = create<ThemeState>()(
  persist((set) => ({ choice: 'system', setChoice: (choice) => set({ choice }) }), { name: 'parley-theme' }),
);

const media = () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null);

function apply(choice: ThemeChoice) {
  const dark = choice === 'dark' || (choice === 'system' && !!media()?.matches);
  document.documentElement.classList.toggle('dark', dark);
}

/** Applies the theme now and whenever the choice or (for `system`) the OS preference changes. */
export function startTheme(): () => void {
  apply(useThemeStore.getState().choice);
  const unsub = useThemeStore.subscribe((s) => apply(s.choice));
  const mq = media();
  const onChange = () => apply(useThemeStore.getState().choice);
  mq?.addEventListener('change', onChange);
  return () => {
    unsub();
    mq?.removeEventListener('change', onChange);
  };
}
