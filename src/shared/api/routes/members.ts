// Routes of the signed-in member's own profile.
import * as z from '../../zod';
import { MB, route } from './define';

export const memberRoutes = {
  uploadProfilePhoto: route({
    method: 'POST', path: '/member/profile-photo', tag: 'member', summary: "Upload the caller's profile photo",
    multipart: { field: 'file', maxBytes: 5 * MB, mimeTypes: ['image/jpeg', 'image/png', 'image/webp'] },
    status: 201, response: z.object({ photoUrl: z.string() }), access: { kind: 'signedIn' },
  }),
} as const;
