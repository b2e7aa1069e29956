import {
  AppError,
  certificateListQuerySchema,
  idParamSchema,
  issueCertificateSchema,
  msg,
  renewCertificateSchema,
  revokeCertificateSchema,
  signingCertificateListSchema,
  signingCertificateSchema,
  signingSettingsSchema,
  updateSigningSettingsSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { toPem } from '../../platform/pki.ts';
import { readUpload } from '../../platform/uploads.ts';
import { caMaterial, currentCrl } from './authority.ts';
import { issueUserCertificate, listCertificates, renewCertificate, revokeCertificate } from './certificates.ts';
import type { SigningDeps } from './deps.ts';
import {
  readSettings,
  replaceInstitutionSeal,
  SIGNATURE_IMAGE_MAX_BYTES,
  updateSettings,
  updateSignatureImage,
} from './settings.ts';

/**
 * The routes of the institution's PKI: its public material (CRL, CA certificates) and what the signing
 * administrator manages (administradorFirma): certificates, appearance settings, the seal, the image.
 */

const tags = ['signing'];
type Act = 'READ' | 'CREATE' | 'UPDATE' | 'DELETE';
const admin = (a: Act) => ({ resource: 'signature-admin' as const, action: a });

export function registerAdminRoutes(app: Parameters<FastifyPluginAsyncZod>[0], deps: SigningDeps): void {
  // ------------------------------------------------------------ public PKI material
  app.get(
    '/api/pki/crl',
    {
      // Public: validators fetch the CRL named in the certificates.
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Lista de certificados revocados (CRL, DER) de la autoridad emisora',
        response: { ...errorResponses(404) },
      },
    },
    async (_request, reply) => {
      const der = await currentCrl(app.db, app.config);
      return reply
        .header('content-type', 'application/pkix-crl')
        .header('cache-control', 'no-cache')
        .send(Buffer.from(der) as never);
    },
  );

  app.get(
    '/api/pki/ca.pem',
    {
      // Public: whoever validates a signed document needs the institution's root (to trust) and issuing CA.
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Certificados de la autoridad raíz y emisora (PEM), para confiar en las firmas de la institución',
        response: { ...errorResponses(404) },
      },
    },
    async (_request, reply) => {
      const { root, ca } = await caMaterial(app.db, app.config);
      return reply
        .header('content-type', 'application/x-pem-file')
        .send(`${toPem(root, 'CERTIFICATE')}${toPem(ca, 'CERTIFICATE')}` as never);
    },
  );

  // ------------------------------------------------------------ certificates (administradorFirma)
  app.get(
    '/api/signing/certificates',
    {
      config: { access: admin('READ') },
      schema: {
        tags,
        summary: 'Certificados de firma emitidos',
        querystring: certificateListQuerySchema,
        response: { 200: signingCertificateListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listCertificates(request.ctx, request.query),
  );
  app.post(
    '/api/signing/certificates',
    {
      config: { access: admin('CREATE') },
      schema: {
        tags,
        summary: 'Emitir un certificado de firma personal (la frase de paso la escribe el titular)',
        body: issueCertificateSchema,
        response: { 201: signingCertificateSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(201).send(await issueUserCertificate(request.ctx, deps, request.body)),
  );
  app.post(
    '/api/signing/certificates/:id/renew',
    {
      config: { access: admin('UPDATE') },
      schema: {
        tags,
        summary: 'Renovar un certificado (nuevo par de claves; el anterior queda revocado)',
        params: idParamSchema,
        body: renewCertificateSchema,
        response: { 201: signingCertificateSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await renewCertificate(request.ctx, deps, request.params.id, request.body.passphrase)),
  );
  app.post(
    '/api/signing/certificates/:id/revoke',
    {
      config: { access: admin('UPDATE') },
      schema: {
        tags,
        summary: 'Revocar un certificado (se publica la CRL)',
        params: idParamSchema,
        body: revokeCertificateSchema,
        response: { 200: signingCertificateSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => revokeCertificate(request.ctx, deps, request.params.id, request.body.reason),
  );
  app.get(
    '/api/signing/settings',
    {
      config: { access: admin('READ') },
      schema: {
        tags,
        summary: 'Apariencia de la firma, sellado de tiempo y autoridades',
        response: { 200: signingSettingsSchema, ...errorResponses(401, 403) },
      },
    },
    async () => readSettings(app.db, app.config),
  );
  app.put(
    '/api/signing/settings',
    {
      config: { access: admin('UPDATE') },
      schema: {
        tags,
        summary: 'Cambiar la apariencia de la firma y el servidor de sellado de tiempo',
        body: updateSigningSettingsSchema,
        response: { 200: signingSettingsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => updateSettings(request.ctx, deps, request.body),
  );
  app.post(
    '/api/signing/seal',
    {
      config: { access: admin('UPDATE') },
      schema: {
        tags,
        summary: 'Cargar un PKCS#12 externo como sello de la institución (multipart: file, password)',
        consumes: ['multipart/form-data'],
        response: { 200: signingSettingsSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const { file, fields } = await readUpload(request, z.object({ password: z.string().max(200).default('') }), {
        accept: ['application/x-pkcs12'],
      });
      if (!file || file.bytes.length > 200_000) throw new AppError('VALIDATION', msg('signing.pkcs12Invalid'));
      return replaceInstitutionSeal(request.ctx, deps, file.bytes, fields.password);
    },
  );

  app.post(
    '/api/signing/settings/image',
    {
      config: { access: admin('UPDATE') },
      schema: {
        tags,
        summary: `Imagen de la firma visible (multipart: file; PNG o JPEG, máximo ${SIGNATURE_IMAGE_MAX_BYTES / 1024} KB)`,
        consumes: ['multipart/form-data'],
        response: { 200: signingSettingsSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const { file } = await readUpload(request, z.object({}).strict(), { accept: ['image/png', 'image/jpeg'] });
      return updateSignatureImage(request.ctx, deps, file);
    },
  );
  app.delete(
    '/api/signing/settings/image',
    {
      config: { access: admin('UPDATE') },
      schema: {
        tags,
        summary: 'Quitar la imagen de la firma visible',
        response: { 200: signingSettingsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => updateSignatureImage(request.ctx, deps, null),
  );
}
