import { z } from 'zod';
import { scopeSchema } from './permissions.ts';

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Correo electrónico no válido.' }));

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, { error: 'Ingrese su contraseña.' }).max(200),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const institutionRefSchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() });

/** The current user as the API returns it and the web app stores under `current-user`. */
export const currentUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  institucion: z.array(z.string()),
  institutionName: z.string(),
  institutions: z.array(institutionRefSchema),
  permissions: z.record(z.string(), z.record(z.string(), scopeSchema)),
  mustChangePassword: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const loginResponseSchema = z.object({
  status: z.literal('success'),
  data: currentUserSchema,
  token: z.string(),
});
