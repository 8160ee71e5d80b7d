import type { FormEventHandler, ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { useIsAdmin } from '../../../lib/queries/session';

/**
 * A card of workspace settings as every settings page draws it: a title, the form's fields (read-only for a
 * non-admin, who is told why) and Save, enabled once something changed.
 */
export function SettingsFormCard({
  title,
  onSubmit,
  isDirty,
  saving,
  children,
}: {
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  isDirty: boolean;
  saving: boolean;
  children: ReactNode;
}) {
  const isAdmin = useIsAdmin();
  return (
    <Card>
      <CardHeader title={title} description={isAdmin ? undefined : 'Only an admin can change these settings.'} />
      <form noValidate onSubmit={onSubmit}>
        <fieldset disabled={!isAdmin} className="flex flex-col gap-4 px-5 py-5">
          {children}
          {isAdmin && (
            <div>
              <Button type="submit" disabled={!isDirty} loading={saving}>
                Save
              </Button>
            </div>
          )}
        </fieldset>
      </form>
    </Card>
  );
}
