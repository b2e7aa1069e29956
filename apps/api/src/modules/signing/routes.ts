import {
  AppError,
  autoSignRuleListSchema,
  autoSignRuleSchema,
  batchSealResultSchema,
  batchSealSchema,
  certificateListQuerySchema,
  documentTypeLabels,
  documentTypes,
  idParamSchema,
  issueCertificateSchema,
  newAutoSignRuleSchema,
  noContentSchema,
  rejectActionSchema,
  renewCertificateSchema,
  revokeCertificateSchema,
  type SigningRequest,
  signActionSchema,
  signerOptionsSchema,
  signingCertificateListSchema,
  signingCertificateSchema,
  signingCountsSchema,
  signingExportQuerySchema,
  signingListQuerySchema,
  signingRequestDetailSchema,
  signingRequestListSchema,
  signingRequestSchema,
  signingRequestStateLabels,
  signingSettingsSchema,
  signingUploadMetaSchema,
  specDocumentListSchema,
  updateAutoSignRuleSchema,
  updateSigningSettingsSchema,
  verificationReportSchema,
} from '@aporta/domain';
import multipart from '@fastify/multipart';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { autoSignRules } from '../../db/schema/index.ts';
import { withPermission } from '../../platform/context.ts';
import { PDF_TYPE, sendDownload } from '../../platform/downloads.ts';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { signPdf } from '../../platform/pades.ts';
import { registerPdfFinisher } from '../../platform/pdf.ts';
import { toPem } from '../../platform/pki.ts';
import { readUpload, uploadLimits } from '../../platform/uploads.ts';
import { documentContent, getDocument } from '../documents/library.ts';
import { caMaterial, currentCrl, ensureAuthority, replaceSeal, sealSigner } from './authority.ts';
import { setBatchConfig, startBatchSeal } from './batch.ts';
import {
  createRule,
  createSigningRequest,
  deleteRule,
  issueUserCertificate,
  listCertificates,
  listRules,
  listSigningRequests,
  pendingCount,
  readSettings,
  rejectRequest,
  renewCertificate,
  requestPdf,
  revokeCertificate,
  SIGNATURE_IMAGE_MAX_BYTES,
  type SigningListKind,
  sealAppearance,
  sendSigningRequest,
  signerOptions,
  signingRequestDetail,
  signRequest,
  specDocuments,
  timestampUrlOf,
  updateRule,
  updateSettings,
  updateSignatureImage,
  verifyUpload,
} from './service.ts';

/**
 * What automatic sealing can name: generated reports (platform/pdf.ts kinds, sealed as they are
 * produced) and the types of the documents library (`documento:<TIPO>`, sealed as they are filed —
 * uploaded, or filed by another module: planilla PDFs, survival acts, letters).
 */
export const sealableKinds = [
  { kind: 'contributor-report-general', label: 'Reporte general de afiliados' },
  { kind: 'contributor-report-municipality', label: 'Reporte de afiliados por municipio' },
  { kind: 'contributor-report-type', label: 'Reporte de afiliados por tipo' },
  { kind: 'planilla', label: 'PDF de una planilla' },
  { kind: 'survival-letters', label: 'Avisos de supervivencia' },
  { kind: 'pension-payroll', label: 'Planilla de pensiones' },
  ...documentTypes.map((t) => ({ kind: `documento:${t}`, label: `Documentos de tipo «${documentTypeLabels[t]}» al archivarse` })),
];

const tags = ['signing'];
type Act = 'READ' | 'CREATE' | 'UPDATE' | 'DELETE';
const admin = (a: Act) => ({ resource: 'signature-admin' as const, action: a });

export const signingRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: uploadLimits });
  // The file store is decorated after the modules register: read it when a request needs it.
  const deps = {
    config: app.config,
    get files() {
      return app.files;
    },
  };
  setBatchConfig(app.config);
  // The certification authority exists from the first start on.
  app.addHook('onReady', async () => {
    await ensureAuthority(app.db, app.config);
  });
  // Automatic sealing of generated documents, and of library documents as they are filed, whose kind has an active rule.
  registerPdfFinisher(async (ctx, kind, pdf) => {
    const [rule] = await ctx.db
      .select({ id: autoSignRules.id })
      .from(autoSignRules)
      .where(and(eq(autoSignRules.documentKind, kind), eq(autoSignRules.isActive, true)));
    if (!rule) return null;
    const signer = await sealSigner(ctx.db, app.config);
    const sealed = await signPdf(new Uint8Array(pdf), signer, {
      reason: 'Sello institucional',
      location: 'Guatemala',
      timestampUrl: await timestampUrlOf(ctx.db),
      appearance: await sealAppearance(ctx.db, deps),
    });
    return Buffer.from(sealed);
  });

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
      if (!file || file.bytes.length > 200_000) throw new AppError('VALIDATION', 'El archivo PKCS#12 no es válido.');
      const done = await replaceSeal(app.db, app.config, file.bytes, fields.password);
      if (!done)
        throw new AppError('VALIDATION', 'El archivo no es un PKCS#12 válido o la contraseña no lo abre.', [
          { path: 'password', message: 'Contraseña incorrecta o archivo inválido.' },
        ]);
      await request.ctx.audit({ action: 'UPDATE', entityType: 'signing_seal', entityId: null, after: done });
      return readSettings(app.db, app.config);
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

  // ------------------------------------------------------------ signing flow (firmaDoc)
  app.get(
    '/api/signing/signers',
    {
      config: { access: { resource: 'signing-upload', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Usuarios con certificado vigente que pueden firmar',
        response: { 200: signerOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => signerOptions(request.ctx),
  );
  app.post(
    '/api/signing/requests',
    {
      config: { access: { resource: 'signing-upload', action: 'CREATE' } },
      schema: {
        tags,
        summary:
          'Cargar un PDF (o tomar uno de Documentos) y enviarlo a firmantes en orden (multipart: file, title, message, signers, documentId, send)',
        consumes: ['multipart/form-data'],
        response: { 201: signingRequestSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { file, fields } = await readUpload(request, signingUploadMetaSchema, {
        fileRequired: false,
        accept: ['application/pdf'],
      });
      let source: { bytes: Uint8Array; filename: string } | null = file;
      if (!source && fields.documentId) {
        const docs = withPermission(request.ctx, 'documents', 'READ');
        await getDocument(docs, fields.documentId);
        const content = await documentContent(docs, app.files, fields.documentId);
        source = { bytes: new Uint8Array(content.bytes), filename: content.filename };
      }
      if (!source)
        throw new AppError('VALIDATION', 'Elija un PDF o un documento de la biblioteca.', [
          { path: 'file', message: 'Elija un archivo.' },
        ]);
      const created = await createSigningRequest(request.ctx, deps, { ...fields, send: fields.send === 'true', file: source });
      return reply.status(201).send(created);
    },
  );
  const lists: [string, SigningListKind, 'signing-pending' | 'signing-signed' | 'signing-rejected' | 'signing-upload', string][] =
    [
      ['/api/signing/requests/pending', 'pending', 'signing-pending', 'Documentos que esperan la firma del usuario'],
      [
        '/api/signing/requests/signed',
        'signed',
        'signing-signed',
        'Documentos firmados por todos en los que el usuario participa',
      ],
      ['/api/signing/requests/rejected', 'rejected', 'signing-rejected', 'Documentos rechazados en los que el usuario participa'],
      ['/api/signing/requests/sent', 'mine', 'signing-upload', 'Documentos que el usuario cargó'],
    ];
  for (const [url, kind, resource, summary] of lists) {
    app.get(
      url,
      {
        config: { access: { resource, action: 'READ' } },
        schema: {
          tags,
          summary,
          querystring: signingListQuerySchema,
          response: { 200: signingRequestListSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => listSigningRequests(request.ctx, kind, request.query),
    );
  }
  for (const [kind, resource, filename] of [
    ['signed', 'signing-signed', 'documentos-firmados'],
    ['rejected', 'signing-rejected', 'documentos-rechazados'],
  ] as const) {
    app.get(
      `/api/signing/requests/${kind}/export`,
      {
        config: { access: { resource, action: 'EXPORT' }, heavy: true },
        schema: {
          tags,
          summary: `Exportar los documentos ${kind === 'signed' ? 'firmados' : 'rechazados'} (xlsx o csv) con la misma búsqueda`,
          querystring: signingExportQuerySchema,
          response: { ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const { format, ...query } = request.query;
        return sendExport<SigningRequest>(reply, {
          format,
          filename,
          sheetName: kind === 'signed' ? 'Firmados' : 'Rechazados',
          batches: (async function* () {
            for (let page = 1; ; page++) {
              const { items } = await listSigningRequests(request.ctx, kind, { ...query, page, pageSize: 500 });
              yield items;
              if (items.length < 500) return;
            }
          })(),
          columns: [
            { header: 'Título', value: (r) => r.title, width: 40 },
            { header: 'Archivo', value: (r) => r.filename, width: 30 },
            { header: 'Remitente', value: (r) => r.createdBy, width: 28 },
            { header: 'Firmantes', value: (r) => r.signers.map((x) => `${x.position}. ${x.name}`).join(' → '), width: 50 },
            { header: 'Estado', value: (r) => signingRequestStateLabels[r.state], width: 14 },
            {
              header: 'Motivo del rechazo',
              value: (r) => r.signers.find((x) => x.reason)?.reason ?? '',
              width: 40,
            },
            { header: 'Cargado', value: (r) => new Date(r.createdAt), width: 20 },
            { header: 'Finalizado', value: (r) => (r.completedAt ? new Date(r.completedAt) : null), width: 20 },
            { header: 'SHA-256', value: (r) => r.sha256, width: 66 },
          ],
        });
      },
    );
  }
  app.get(
    '/api/signing/requests/count',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Cuántos documentos esperan la firma del usuario (contador del menú)',
        response: { 200: signingCountsSchema, ...errorResponses(401) },
      },
    },
    async (request) => pendingCount(request.ctx),
  );
  app.get(
    '/api/signing/requests/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Un documento en firma con su rastro de auditoría (solo para quienes participan)',
        params: idParamSchema,
        response: { 200: signingRequestDetailSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => signingRequestDetail(request.ctx, request.params.id),
  );
  app.get(
    '/api/signing/requests/:id/pdf',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'El PDF en su estado actual (vista previa o descarga); cabecera x-document-sha256',
        params: idParamSchema,
        querystring: z.object({ download: z.enum(['1', '0']).optional() }),
        response: { ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { bytes, filename, sha256 } = await requestPdf(request.ctx, deps, request.params.id);
      return sendDownload(reply, {
        body: bytes,
        contentType: PDF_TYPE,
        filename,
        // An uploaded PDF (signed here, but not written here): always saved, never shown by the browser
        // from this origin (issue 25). The screen previews it from the bytes it fetched.
        disposition: 'attachment',
        headers: { 'x-document-sha256': sha256 },
      });
    },
  );
  app.post(
    '/api/signing/requests/:id/send',
    {
      config: { access: { resource: 'signing-upload', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Enviar un borrador al primer firmante',
        params: idParamSchema,
        response: { 200: signingRequestSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => sendSigningRequest(request.ctx, request.params.id),
  );
  app.post(
    '/api/signing/requests/:id/sign',
    {
      config: { access: { resource: 'signing-pending', action: 'SIGN' } },
      schema: {
        tags,
        summary: 'Firmar con la frase de paso (PAdES, actualización incremental); sha256 = la huella del documento revisado',
        params: idParamSchema,
        body: signActionSchema,
        response: { 200: signingRequestSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => signRequest(request.ctx, deps, request.params.id, request.body),
  );
  app.post(
    '/api/signing/requests/:id/reject',
    {
      config: { access: { resource: 'signing-pending', action: 'SIGN' } },
      schema: {
        tags,
        summary: 'Rechazar con un motivo',
        params: idParamSchema,
        body: rejectActionSchema,
        response: { 200: signingRequestSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => rejectRequest(request.ctx, request.params.id, request.body.reason),
  );

  // ------------------------------------------------------------ the spec's calls
  for (const state of ['borrador', 'firmado', 'rechazado'] as const) {
    app.get(
      `/api/files/documentos/${state}`,
      {
        config: { access: 'authenticated' },
        schema: {
          tags,
          summary: `Documentos del usuario en estado ${state}`,
          response: { 200: specDocumentListSchema, ...errorResponses(401) },
        },
      },
      async (request) => specDocuments(request.ctx, state),
    );
  }

  // ------------------------------------------------------------ verification
  app.post(
    '/api/signing/verify',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Verificar las firmas de un PDF (multipart: file): firmante, cadena, hora, cambios posteriores, revocación',
        consumes: ['multipart/form-data'],
        response: { 200: verificationReportSchema, ...errorResponses(400, 401, 413, 415) },
      },
    },
    async (request) => {
      // Only read (its signatures checked), never kept nor served: an active PDF may be verified.
      const { file } = await readUpload(request, z.object({}), { accept: ['application/pdf'], keeps: false });
      if (!file) throw new AppError('VALIDATION', 'No se recibió ningún archivo.');
      return verifyUpload(request.ctx, deps, file);
    },
  );

  // ------------------------------------------------------------ automatic signing (firmaAutomatica)
  app.get(
    '/api/signing/rules',
    {
      config: { access: { resource: 'auto-signature', action: 'READ' } },
      schema: {
        tags,
        summary: 'Reglas de sellado automático de documentos generados',
        response: { 200: autoSignRuleListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ items: await listRules(request.ctx), kinds: sealableKinds }),
  );
  app.post(
    '/api/signing/rules',
    {
      config: { access: { resource: 'auto-signature', action: 'SIGN' } },
      schema: {
        tags,
        summary: 'Crear una regla de sellado automático',
        body: newAutoSignRuleSchema,
        response: { 201: autoSignRuleSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      if (!sealableKinds.some((k) => k.kind === request.body.documentKind)) {
        throw new AppError('VALIDATION', 'Tipo de documento generado: elija uno de la lista.', [
          { path: 'documentKind', message: 'Elija uno de la lista.' },
        ]);
      }
      return reply.status(201).send(await createRule(request.ctx, request.body));
    },
  );
  app.put(
    '/api/signing/rules/:id',
    {
      config: { access: { resource: 'auto-signature', action: 'SIGN' } },
      schema: {
        tags,
        summary: 'Activar o desactivar una regla',
        params: idParamSchema,
        body: updateAutoSignRuleSchema,
        response: { 200: autoSignRuleSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => updateRule(request.ctx, request.params.id, request.body),
  );
  app.delete(
    '/api/signing/rules/:id',
    {
      config: { access: { resource: 'auto-signature', action: 'SIGN' } },
      schema: {
        tags,
        summary: 'Eliminar una regla',
        params: idParamSchema,
        response: { 204: noContentSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await deleteRule(request.ctx, request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/signing/batch',
    {
      config: { access: { resource: 'auto-signature', action: 'SIGN' } },
      schema: {
        tags,
        summary: 'Sellar en lote los PDF de Documentos que elige un filtro (proceso con avance)',
        body: batchSealSchema,
        response: { 202: batchSealResultSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(202).send(await startBatchSeal(request.ctx, request.body)),
  );
};
