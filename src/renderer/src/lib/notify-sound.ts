/**
 * The optional "new message" sound: off by default (an open-plan office), switched on per device in Profile
 * settings. A short two-tone chime made with Web Audio, so no audio file ships or loads.
 */
import { create } from 'zustand';

const KEY = 'parley.sound.newMessage';

function stored(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

interface SoundSetting {
  enabled: boolean;
  setEnabled: (on: boolean) => void;
}

export const useSoundSetting = create<SoundSetting>()((set) => ({
  enabled: stored(),
  setEnabled: (on) => {
    try {
      globalThis.localStorage?.setItem(KEY, on ? 'on' : 'off');
    } catch {
      // Private mode: the choice lasts for this session only.
    }
    set({ enabled: on });
  },
}));

let context: AudioContext | null = null;
let lastPlayed = 0;

/** Plays the chime when the setting is on; a burst of messages chimes once (at most every 2 s). */
export function playNewMessageSound(now = Date.now()): boolean {
  if (!useSoundSetting.getState().enabled || now - lastPlayed < 2000) return false;
  lastPlayed = now;
  try {
    const Ctx = globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return true;
    context ??= new Ctx();
    const t = context.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, t + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.12 + 0.25);
      osc.connect(gain).connect(context.destination);
      osc.start(t + i * 0.12);
      osc.stop(t + i * 0.12 + 0.3);
    }
  } catch {
    // No audio device: the badge and the title still tell.
  }
  return true;
}

/** Tests start from a quiet state. */
export function resetSoundThrottle() {
  lastPlayed = 0;
}
