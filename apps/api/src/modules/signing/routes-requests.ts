import {
  idParamSchema,
  rejectActionSchema,
  type SigningRequest,
  signActionSchema,
  signerOptionsSchema,
  signingCountsSchema,
  signingExportQuerySchema,
  signingListQuerySchema,
  signingRequestDetailSchema,
  signingRequestListSchema,
  signingRequestSchema,
  signingRequestStateLabels,
  signingUploadMetaSchema,
  specDocumentListSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PDF_TYPE, sendDownload } from '../../platform/downloads.ts';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { readUpload } from '../../platform/uploads.ts';
import type { SigningDeps } from './deps.ts';
import {
  listSigningRequests,
  pendingCount,
  requestPdf,
  type SigningListKind,
  signingRequestDetail,
  specDocuments,
} from './lists.ts';
import { sendSigningRequest, uploadSigningRequest } from './requests.ts';
import { rejectRequest, signRequest } from './sign.ts';
import { signerOptions } from './signers.ts';

/** The routes of the signing flow (firmaDoc): uploading, the lists and their exports, signing, rejecting, the spec's calls. */

const tags = ['signing'];

export function registerRequestRoutes(app: Parameters<FastifyPluginAsyncZod>[0], deps: SigningDeps): void {
  // ------------------------------------------------------------ signing flow (firmaDoc)
  app.get(
    '/api/signing/signers',
    {
      config: { access: { resource: 'signing-upload', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Usuarios que pueden firmar: activos, con el permiso de firmar y un certificado vigente',
        response: { 200: signerOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => signerOptions(request.ctx.db),
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
      return reply.status(201).send(await uploadSigningRequest(request.ctx, deps, fields, file));
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
}
