import { z } from 'zod';
import { ROLES } from '../../shared/roles.ts';

const role = z.enum(ROLES, { error: `Choose one of ${ROLES.join(', ')}.` });

export const createInvitationBody = z.strictObject({
  role,
  email: z
    .string({ error: 'Give an email address, or leave it out.' })
    .trim()
    .max(254, 'That email address is too long.')
    .pipe(z.email({ error: 'That is not an email address.' }))
    .transform((email) => email.toLowerCase())
    .nullish(),
});

export const memberChangeBody = z
  .strictObject({
    role: role.optional(),
    disabled: z.boolean({ error: 'Give true or false.' }).optional(),
  })
  .refine((change) => change.role !== undefined || change.disabled !== undefined, {
    message: 'Give a role, disabled, or both.',
  });

export const invitationCheckBody = z.strictObject({
  code: z.string({ error: 'Give the invitation code.' }).max(200, 'That is not an invitation code.'),
});
