// Follows a file another process writes (the emulator's output), line by line.
import { closeSync, openSync, readSync } from 'node:fs';

/** Follows a growing file, calling onLine for each complete line. */
export function tailFile(file: string, onLine: (line: string) => void): { poll: () => void; stop: () => void } {
  let offset = 0;
  let partial = '';
  const buf = Buffer.alloc(64 * 1024);
  const poll = () => {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return;
    }
    try {
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, offset);
        if (n <= 0) break;
        offset += n;
        const lines = (partial + buf.subarray(0, n).toString('utf8')).split(/\r?\n/);
        partial = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) onLine(line);
      }
    } finally {
      closeSync(fd);
    }
  };
  const timer = setInterval(poll, 250);
  timer.unref();
  return { poll, stop: () => (poll(), clearInterval(timer)) };
}
