import { z } from 'zod';
import { text } from './messages.ts';
import { scopeSchema } from './permissions.ts';

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: text('accounts.emailInvalid') }));

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z
    .string()
    .min(1, { error: text('accounts.loginPasswordRequired') })
    .max(200),
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
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** The one answer to a registration, whether the e-mail was new or already had an account. */
export const registerResponseSchema = z.object({ status: z.literal('success'), message: z.string() });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/** The specification's test-auth sign-in: `username` is the e-mail. */
export const testAuthLoginSchema = z.object({
  username: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(200),
});
export type TestAuthLogin = z.infer<typeof testAuthLoginSchema>;
export const testAuthLoginResponseSchema = z.object({ success: z.literal(true), token: z.string() });
export const testAuthVerifyResponseSchema = z.object({ success: z.literal(true), user: currentUserSchema });
/** test-auth answers its failures in its own shape, not the error shape. */
export const testAuthFailureSchema = z.object({ success: z.literal(false), message: z.string() });
export type TestAuthFailure = z.infer<typeof testAuthFailureSchema>;

// ---------------------------------------------------------------- «Olvidé mi contraseña»

/** Asks for a link to set a new password, sent to the address if it belongs to an active account. */
export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** The one answer to a reset request, whether the address has an account or not (no enumeration). */
export const forgotPasswordResponseSchema = z.object({ status: z.literal('success'), message: z.string() });
export type ForgotPasswordResponse = z.infer<typeof forgotPasswordResponseSchema>;

/**
 * Sets a new password with the token of a reset link. Every problem with the token (missing, unknown,
 * used, expired) is the one message `accounts.resetLinkInvalid`; the password's rule is the product's
 * (passwordProblem, checked by the server with the configured minimum). 200 = PASSWORD_MAX_LENGTH
 * (accounts.ts, which imports this file).
 */
export const resetPasswordSchema = z.object({
  token: z
    .string({ error: text('accounts.resetLinkInvalid') })
    .trim()
    .min(1, { error: text('accounts.resetLinkInvalid') })
    .max(200, { error: text('accounts.resetLinkInvalid') }),
  password: z
    .string()
    .min(1, { error: text('accounts.passwordRequired') })
    .max(200, { error: text('accounts.passwordTooLong') }),
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;
