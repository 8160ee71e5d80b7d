import { zodResolver } from '@hookform/resolvers/zod';
import { Camera } from 'lucide-react';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { messages } from '@shared/messages';
import { limits } from '@shared/limits';
import { Avatar } from '../../../components/ui/avatar';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { useMember } from '../../../lib/queries/session';
import { playNewMessageSound, resetSoundThrottle, useSoundSetting } from '../../../lib/notify-sound';
import { Switch } from '../../../components/ui/switch';
import { useAuthStore } from '../../../stores/auth-store';
import { useUpdateDisplayName } from '../api/update-display-name';
import { useUploadProfilePhoto } from '../api/upload-profile-photo';
import { SettingsPage } from './settings-page';

const ProfileForm = z.object({
  displayName: z.string().trim().min(limits.userName.min, { error: messages.name }).max(limits.userName.max, { error: messages.name }),
});

/** `/settings/profile`: display name and photo (kept by the identity service). */
export function ProfilePage() {
  const user = useAuthStore((s) => s.user);
  const me = useMember();
  const rename = useUpdateDisplayName();
  const upload = useUploadProfilePhoto();
  const fileInput = useRef<HTMLInputElement>(null);
  const form = useForm<z.infer<typeof ProfileForm>>({
    resolver: zodResolver(ProfileForm),
    values: { displayName: user?.displayName ?? '' },
  });
  const { errors, isDirty } = form.formState;

  return (
    <SettingsPage title="Profile" description="How your teammates and customers see you.">
      <Card>
        <CardHeader title="Photo" description="JPEG, PNG or WebP, up to 5 MB." />
        <div className="flex items-center gap-4 px-5 py-5">
          <Avatar name={user?.displayName || user?.email} src={user?.photoURL} className="size-16 text-lg" />
          <input
            ref={fileInput}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="sr-only"
            aria-label="Profile photo file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) upload.mutate(file, { onSuccess: () => toast.success('Photo updated') });
            }}
          />
          <Button variant="secondary" loading={upload.isPending} onClick={() => fileInput.current?.click()}>
            <Camera /> Upload photo
          </Button>
        </div>
      </Card>
      <Card className="mt-6">
        <CardHeader title="Details" />
        <form
          noValidate
          className="flex flex-col gap-4 px-5 py-5"
          onSubmit={form.handleSubmit((v) =>
            rename.mutate(v.displayName, {
              onSuccess: () => {
                toast.success('Profile saved');
                form.reset(v);
              },
              onError: (err) => toast.error(err.message),
            }),
          )}
        >
          <FormField label="Display name" error={errors.displayName?.message} className="max-w-sm">
            <Input autoComplete="name" {...form.register('displayName')} />
          </FormField>
          <FormField label="Email" className="max-w-sm" hint="Your sign-in address.">
            <Input value={user?.email ?? ''} readOnly disabled />
          </FormField>
          <div className="flex items-center gap-2 text-[13px] text-fg-muted">
            Role in this workspace: <Badge tone={me.role === 'admin' ? 'blue' : 'neutral'} className="capitalize">{me.role}</Badge>
          </div>
          <div>
            <Button type="submit" disabled={!isDirty} loading={rename.isPending}>
              Save
            </Button>
          </div>
        </form>
      </Card>
      <SoundCard />
    </SettingsPage>
  );
}

/** The optional chime for a customer's message (this device only: a setting of where you sit, not of you). */
function SoundCard() {
  const enabled = useSoundSetting((s) => s.enabled);
  const setEnabled = useSoundSetting((s) => s.setEnabled);
  return (
    <Card className="mt-6">
      <CardHeader title="Notifications" description="The unread count shows on Live chat in the navigation and in the window title." />
      <div className="flex items-center justify-between gap-4 px-5 py-4">
        <label htmlFor="new-message-sound" className="text-[13px] text-fg">
          Play a sound when a customer writes (on this device)
        </label>
        <Switch
          id="new-message-sound"
          checked={enabled}
          onCheckedChange={(on) => {
            setEnabled(on);
            if (on) {
              resetSoundThrottle();
              playNewMessageSound();
            }
          }}
        />
      </div>
    </Card>
  );
}
