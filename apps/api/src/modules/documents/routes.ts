import {
  type DocumentExportQuery,
  documentDetailSchema,
  documentExportQuerySchema,
  documentListQuerySchema,
  documentListSchema,
  documentMetaSchema,
  documentOptionsSchema,
  documentTypeLabels,
  documentVerificationSchema,
  folderListQuerySchema,
  folderListSchema,
  folderSchema,
  idParamSchema,
  type LibraryDocument,
  newFolderSchema,
  noContentSchema,
  text,
} from '@aporta/domain';
import multipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import { PDF_TYPE, sendDownload } from '../../platform/downloads.ts';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { isGeneratedPdf } from '../../platform/pdf.ts';
import { DOCUMENT_TYPES, readUpload, uploadLimits } from '../../platform/uploads.ts';
import { addDocument, addVersion, deleteDocument } from './filing.ts';
import { createFolder, deleteFolder, listFolders } from './folders.ts';
import { documentBatches, documentContent, documentOptions, getDocument, listDocuments } from './library.ts';
import { verifyDocument } from './service.ts';

const tags = ['documents'];
type Act = 'READ' | 'CREATE' | 'UPDATE' | 'DELETE' | 'EXPORT';
const perm = (a: Act) => ({ resource: 'documents' as const, action: a });

export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: uploadLimits });

  app.get(
    '/api/documents/verify/:code',
    {
      // Public (see verifyDocument): a printed report is checked by whoever received it. Rate-limited
      // like sign-in, so the route cannot be used to probe codes at speed.
      config: { access: 'public', rateLimit: { max: app.config.LOGIN_RATE_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Verificar un documento generado por su código (título, fecha, páginas y SHA-256)',
        params: z.object({ code: z.string().max(40, text('signing.verificationCodeTooLong')) }),
        response: { 200: documentVerificationSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => verifyDocument(app.db, { code: request.params.code }),
  );

  // ------------------------------------------------------------ library (/folders)
  app.get(
    '/api/folders',
    {
      config: { access: perm('READ') },
      schema: {
        tags,
        summary: 'Carpetas de un nivel (raíz sin parentId) con la ruta hasta ellas',
        querystring: folderListQuerySchema,
        response: { 200: folderListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => listFolders(request.ctx, request.query.parentId),
  );
  app.post(
    '/api/folders',
    {
      config: { access: perm('CREATE') },
      schema: {
        tags,
        summary: 'Crear una carpeta o sub-carpeta',
        body: newFolderSchema,
        response: { 201: folderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createFolder(request.ctx, request.body)),
  );
  app.delete(
    '/api/folders/:id',
    {
      config: { access: perm('DELETE') },
      schema: {
        tags,
        summary: 'Eliminar una carpeta vacía',
        params: idParamSchema,
        response: { 204: noContentSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await deleteFolder(request.ctx, request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/api/folders/options',
    {
      config: { access: perm('READ') },
      schema: {
        tags,
        summary: 'Opciones de los formularios de Documentos (entidades a su alcance)',
        response: { 200: documentOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => documentOptions(request.ctx),
  );
  // The export of a list: the search page's (all folders in reach) or one folder's (the screen inside it).
  const exportDocuments = (ctx: RequestContext, reply: FastifyReply, query: DocumentExportQuery) => {
    const { format, ...filter } = query;
    return sendExport<LibraryDocument>(reply, {
      format,
      filename: 'documentos',
      sheetName: 'Documentos',
      batches: documentBatches(ctx, filter),
      columns: [
        { header: 'Título', value: (d) => d.title, width: 40 },
        {
          header: 'Tipo',
          value: (d) => documentTypeLabels[d.docType as keyof typeof documentTypeLabels] ?? d.docType,
          width: 16,
        },
        { header: 'Carpeta', value: (d) => d.folderName, width: 24 },
        { header: 'Entidad', value: (d) => d.aboutEntityName, width: 30 },
        { header: 'CUI del afiliado', value: (d) => d.contributorCui, width: 16 },
        { header: 'Afiliado', value: (d) => d.contributorName, width: 30 },
        { header: 'Versión', value: (d) => d.version, width: 10 },
        { header: 'Archivo', value: (d) => d.filename, width: 30 },
        { header: 'Páginas', value: (d) => d.pages, width: 10 },
        { header: 'SHA-256', value: (d) => d.sha256, width: 66 },
        { header: 'Actualizado', value: (d) => new Date(d.updatedAt), width: 20 },
      ],
    });
  };
  app.get(
    '/api/library/documents/export',
    {
      config: { access: perm('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Exportar documentos (xlsx o csv) con los mismos filtros',
        querystring: documentExportQuerySchema,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => exportDocuments(request.ctx, reply, request.query),
  );
  app.get(
    '/api/folders/:id/documents/export',
    {
      config: { access: perm('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Exportar los documentos de una carpeta (xlsx o csv) con la misma búsqueda',
        params: idParamSchema,
        querystring: documentExportQuerySchema.omit({ folderId: true }),
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await listFolders(request.ctx, request.params.id);
      return exportDocuments(request.ctx, reply, { ...request.query, folderId: request.params.id });
    },
  );
  app.get(
    '/api/library/documents',
    {
      config: { access: perm('READ') },
      schema: {
        tags,
        summary: 'Buscar documentos (carpeta, tipo, afiliado, texto)',
        querystring: documentListQuerySchema,
        response: { 200: documentListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listDocuments(request.ctx, request.query),
  );
  app.post(
    '/api/library/documents',
    {
      config: { access: perm('CREATE') },
      schema: {
        tags,
        summary: 'Cargar un documento (multipart: file, folderId, title, docType, aboutEntityId, contributorId o contributorCui)',
        consumes: ['multipart/form-data'],
        response: { 201: documentDetailSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { file, fields } = await readUpload(request, documentMetaSchema, { accept: DOCUMENT_TYPES });
      return reply.status(201).send(await addDocument(request.ctx, app.files, { ...fields, file: file! }));
    },
  );
  app.get(
    '/api/library/documents/:id',
    {
      config: { access: perm('READ') },
      schema: {
        tags,
        summary: 'Un documento con sus versiones',
        params: idParamSchema,
        response: { 200: documentDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getDocument(request.ctx, request.params.id),
  );
  app.post(
    '/api/library/documents/:id/versions',
    {
      config: { access: perm('UPDATE') },
      schema: {
        tags,
        summary: 'Cargar una versión nueva (multipart: file)',
        params: idParamSchema,
        consumes: ['multipart/form-data'],
        response: { 201: documentDetailSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { file, fields } = await readUpload(
        request,
        z.object({ note: z.string().trim().max(200, text('signing.noteTooLong')).optional() }),
        { accept: DOCUMENT_TYPES },
      );
      return reply.status(201).send(await addVersion(request.ctx, app.files, request.params.id, file!, fields.note || undefined));
    },
  );
  app.get(
    '/api/library/documents/:id/content',
    {
      config: { access: perm('READ') },
      schema: {
        tags,
        summary: 'Contenido de un documento (vista previa en el navegador o descarga)',
        params: idParamSchema,
        querystring: z.object({
          version: z.coerce.number().int().min(1).max(100000).optional(),
          download: z.enum(['1', '0']).optional(),
        }),
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const c = await documentContent(request.ctx, app.files, request.params.id, request.query.version);
      return sendDownload(reply, {
        body: c.bytes,
        contentType: c.contentType,
        filename: c.filename,
        // Only a PDF this application generated (registered with its verification code, these very bytes)
        // may be previewed in the browser; an upload, and any other type, is always saved (issue 25).
        disposition:
          request.query.download !== '1' && c.contentType === PDF_TYPE && (await isGeneratedPdf(request.ctx.db, c.sha256))
            ? 'inline'
            : 'attachment',
      });
    },
  );
  app.delete(
    '/api/library/documents/:id',
    {
      config: { access: perm('DELETE') },
      schema: {
        tags,
        summary: 'Eliminar un documento',
        params: idParamSchema,
        response: { 204: noContentSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await deleteDocument(request.ctx, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
