import { Server } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ServerAddress } from '@shared/ipc';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { setApiBaseUrl } from '../../../lib/config';
import { desktopCall, isDesktop } from '../../../lib/desktop';

/**
 * Desktop only: which Parley server the app talks to. Main checks `/healthz` there before remembering it (and
 * builds the window's Content-Security-Policy from it); the web app is always served by its own server.
 */
export function ServerAddressSetting() {
  const desktop = isDesktop();
  const [current, setCurrent] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!desktop) return;
    void desktopCall('server.getAddress').then(
      (a) => {
        setCurrent(a.url);
        setValue(a.url ?? '');
        if (!a.url) setEditing(true);
      },
      () => setEditing(true),
    );
  }, [desktop]);

  if (!desktop) return null;

  const save = async () => {
    setError(null);
    const parsed = ServerAddress.safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter the server address as http(s)://host[:port]');
      return;
    }
    setSaving(true);
    try {
      const answer = await desktopCall('server.setAddress', { url: parsed.data });
      if (answer.url) setApiBaseUrl(answer.url);
      setCurrent(answer.url);
      setEditing(false);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'That server could not be reached');
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-label="Server" className="mt-5 rounded-md border border-border bg-subtle px-3 py-2.5 text-[13px]">
      {editing ? (
        <form
          noValidate
          className="flex flex-col gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label htmlFor="server-address" className="font-medium text-fg">
            Parley server address
          </label>
          <div className="flex gap-2">
            <Input
              id="server-address"
              type="url"
              inputMode="url"
              placeholder="https://parley.example.com"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'server-address-error' : undefined}
            />
            <Button type="submit" variant="secondary" loading={saving}>
              Check and save
            </Button>
          </div>
          {error && (
            <p id="server-address-error" role="alert" className="text-danger">
              {error}
            </p>
          )}
        </form>
      ) : (
        <p className="flex items-center gap-2 text-fg-muted">
          <Server className="size-4 shrink-0" aria-hidden />
          <span className="min-w-0 flex-1 truncate">
            Server: <span className="font-medium text-fg">{current}</span>
          </span>
          <Button type="button" variant="ghost" size="sm" onClick={() => setEditing(true)}>
            Change
          </Button>
        </p>
      )}
    </section>
  );
}
