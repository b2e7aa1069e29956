import {
  AppError,
  changePasswordSchema,
  currentUserSchema,
  forgotPasswordResponseSchema,
  forgotPasswordSchema,
  loginRequestSchema,
  loginResponseSchema,
  noContentSchema,
  registerResponseSchema,
  registerSchema,
  resetPasswordSchema,
  testAuthFailureSchema,
  testAuthLoginResponseSchema,
  testAuthLoginSchema,
  testAuthVerifyResponseSchema,
  text,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http.ts';
import { authenticate } from '../../platform/session.ts';
import { requestPasswordReset, resetPassword } from './password-reset.ts';
import { changeOwnPassword, login, logout, register } from './service.ts';

/** The one answer to a registration, whether the e-mail was new or already had an account. */
export const REGISTERED_MESSAGE = text('accounts.registered');
/** The one answer to «Olvidé mi contraseña», whether the address has an account or not. */
export const RESET_REQUESTED_MESSAGE = text('accounts.resetRequested');

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/auth/login',
    {
      config: { access: 'public', rateLimit: { max: app.config.LOGIN_RATE_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Iniciar sesión',
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, ...errorResponses(400, 401, 403, 423, 429) },
      },
    },
    async (request) => {
      // Sign-in runs on the priority pool: it never waits behind searches (platform/load.ts).
      const { user, token } = await login({
        db: app.database.priorityDb,
        policy: app.authPolicy,
        ...request.body,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      return { status: 'success' as const, data: user, token };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], summary: 'Cerrar sesión', response: { 204: noContentSchema, ...errorResponses(401) } },
    },
    async (request, reply) => {
      await logout(request.ctx);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/auth/me',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], summary: 'Usuario actual', response: { 200: currentUserSchema, ...errorResponses(401) } },
    },
    async (request) => request.ctx.user,
  );

  // Same per-IP limit as sign-in: registration hashes a password too and could be used to probe e-mails.
  app.post(
    '/api/auth/register',
    {
      config: { access: 'public', rateLimit: { max: app.config.LOGIN_RATE_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary:
          'Registrarse (la cuenta queda inactiva hasta que un administrador la active; la respuesta no dice si el correo ya existía)',
        body: registerSchema,
        response: {
          202: registerResponseSchema,
          ...errorResponses(400, 403, 429),
        },
      },
    },
    async (request, reply) => {
      await register({
        db: app.db,
        enabled: app.config.REGISTRATION_ENABLED,
        minLength: app.config.PASSWORD_MIN_LENGTH,
        data: request.body,
        ip: request.ip,
      });
      return reply.status(202).send({ status: 'success' as const, message: REGISTERED_MESSAGE });
    },
  );

  app.post(
    '/api/auth/change-password',
    {
      // Reachable while a password change is required: it is how the user gets out of that state.
      config: { access: 'authenticated', rateLimit: { max: app.config.LOGIN_RATE_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Cambiar la contraseña propia',
        body: changePasswordSchema,
        response: { 200: currentUserSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => changeOwnPassword(request.ctx, { minLength: app.config.PASSWORD_MIN_LENGTH, data: request.body }),
  );

  // «Olvidé mi contraseña»: limited per IP like sign-in, and per address in the service.
  app.post(
    '/api/auth/forgot-password',
    {
      config: { access: 'public', rateLimit: { max: app.config.LOGIN_RATE_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary:
          'Solicitar un enlace para restablecer la contraseña (la respuesta es la misma exista o no una cuenta con ese correo)',
        body: forgotPasswordSchema,
        response: { 202: forgotPasswordResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      await requestPasswordReset({
        db: app.db,
        email: request.body.email,
        ip: request.ip,
        minutes: app.config.PASSWORD_RESET_MINUTES,
        perAddressPerHour: app.config.PASSWORD_RESET_PER_ADDRESS_PER_HOUR,
      });
      return reply.status(202).send({ status: 'success' as const, message: RESET_REQUESTED_MESSAGE });
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      config: { access: 'public', rateLimit: { max: app.config.LOGIN_RATE_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Fijar una contraseña nueva con el enlace recibido por correo (cierra todas las sesiones del usuario)',
        body: resetPasswordSchema,
        response: { 204: noContentSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      await resetPassword({
        db: app.db,
        token: request.body.token,
        password: request.body.password,
        minLength: app.config.PASSWORD_MIN_LENGTH,
        ip: request.ip,
      });
      return reply.status(204).send(null);
    },
  );

  // Compatibility with the specification's test-auth calls. Public: they answer their own
  // { success, … } shape instead of the error shape, and check the token themselves.
  const testAuthFailure = testAuthFailureSchema;
  app.post(
    '/api/test-auth/login',
    {
      config: { access: 'public', rateLimit: { max: app.config.LOGIN_RATE_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Iniciar sesión (compatibilidad: username y password)',
        body: testAuthLoginSchema,
        response: {
          200: testAuthLoginResponseSchema,
          401: testAuthFailure,
          403: testAuthFailure,
          423: testAuthFailure,
          ...errorResponses(400, 429),
        },
      },
    },
    async (request, reply) => {
      try {
        const { token } = await login({
          db: app.db,
          policy: app.authPolicy,
          email: request.body.username.toLowerCase(),
          password: request.body.password,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
        });
        return { success: true as const, token };
      } catch (err) {
        if (!(err instanceof AppError) || ![401, 403, 423].includes(err.status)) throw err;
        return reply.status(err.status as 401).send({ success: false as const, message: err.message });
      }
    },
  );

  app.get(
    '/api/test-auth/verify',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Verificar el token (compatibilidad)',
        response: { 200: testAuthVerifyResponseSchema, 401: testAuthFailure },
      },
    },
    async (request, reply) => {
      const m = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      if (!m) return reply.status(401).send({ success: false as const, message: text('accounts.noToken') });
      try {
        const auth = await authenticate({ db: app.database.priorityDb, policy: app.authPolicy, token: m[1], ip: request.ip });
        return { success: true as const, user: auth.user };
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 401) throw err;
        return reply.status(401).send({ success: false as const, message: err.message });
      }
    },
  );
};
