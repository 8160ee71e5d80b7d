import { Monitor, Moon, Sun } from 'lucide-react';
import { type ThemeChoice, useThemeStore } from '../../lib/theme';
import { Button } from '../ui/button';

const next: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const label: Record<ThemeChoice, string> = { system: 'Theme: follow system', light: 'Theme: light', dark: 'Theme: dark' };

/** Cycles system -> light -> dark. */
export function ThemeToggle() {
  const choice = useThemeStore((s) => s.choice);
  const setChoice = useThemeStore((s) => s.setChoice);
  const Icon = choice === 'dark' ? Moon : choice === 'light' ? Sun : Monitor;
  return (
    <Button variant="ghost" size="icon-sm" aria-label={`${label[choice]} (change)`} title={label[choice]} onClick={() => setChoice(next[choice])}>
      <Icon />
    </Button>
  );
}
