import { setTimeout as sleep } from 'node:timers/promises';
import {
  cartItemInputSchema,
  cartProductParamsSchema,
  cartSchema,
  chatSliceSchemas,
  collectionContractOf,
  collectionNameParamsSchema,
  isChatSlice,
  type SliceMethod,
  sliceDeleteIdSchema,
  sliceDeleteIdsSchema,
  TEMPLATE_DELAY_MS,
  TEMPLATE_RESOURCE,
  type TemplateSlice,
  templateCollectionDefinitions,
  templateSliceContractOf,
  templateSliceNames,
  templateSlices,
  templateSummarySchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http.ts';
import { chatSlice } from '../chat/slices.ts';
import {
  addToSlice,
  dashboardSummary,
  deleteFromSlice,
  getCart,
  readSlice,
  removeCartItem,
  replaceInSlice,
  setCartItem,
  sliceOf,
} from './service.ts';

const action = { GET: 'READ', POST: 'CREATE', PUT: 'UPDATE', DELETE: 'DELETE' } as const;

/**
 * The template's routes: the spec's data calls `/app/{collection}` (§7, errors of §8), and the cart and
 * dashboard figures of the template's screens under /api/plantilla. All under the permission `plantilla`.
 */
export const templateRoutes: FastifyPluginAsyncZod = async (app) => {
  // A DELETE "without data" may come with a JSON content type and an empty body: that is the spec's
  // 'Unauthorised', not a malformed body. Other bodies go through Fastify's own (safe) JSON parser.
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    return json(request, body as string, done);
  });
  // Spec §9: the simulated backend answered after 500 ms; off unless TEMPLATE_DELAY is set, for demos.
  if (app.config.TEMPLATE_DELAY) {
    app.addHook('preHandler', async (request) => {
      if (request.url.startsWith('/app/')) await sleep(TEMPLATE_DELAY_MS);
    });
  }

  const tags = ['plantilla'];
  for (const name of templateSliceNames) {
    const slice = templateSlices[name] as TemplateSlice;
    const url = `/app/${name}`;
    const access = (m: SliceMethod) => ({ access: { resource: TEMPLATE_RESOURCE, action: action[m] } }) as const;
    if (slice.collection === 'chat') {
      if (!isChatSlice(name)) throw new Error(`La porción ${name} del chat no declara su respuesta (chatSliceSchemas)`);
      app.get(
        url,
        {
          config: access('GET'),
          schema: {
            tags,
            summary: `Datos del chat: ${name}`,
            response: { 200: chatSliceSchemas[name], ...errorResponses(401, 403) },
          },
        },
        // chatSlice is typed as open records (modules/chat/slices.ts); the schema holds each slice's shape.
        async (request) => chatSlice(request.ctx, name) as never,
      );
      continue;
    }
    const def = templateCollectionDefinitions[slice.collection];
    const { record, create } = collectionContractOf(def);
    const { list, replace } = templateSliceContractOf(def);
    if (slice.methods.includes('GET')) {
      app.get(
        url,
        {
          config: access('GET'),
          schema: { tags, summary: `${def.label} (${name})`, response: { 200: list, ...errorResponses(401, 403) } },
        },
        async (request) => readSlice(request.ctx, sliceOf(name, 'GET')) as never,
      );
    }
    if (slice.methods.includes('POST')) {
      app.post(
        url,
        {
          config: access('POST'),
          schema: {
            tags,
            summary: `Agregar a ${def.label.toLowerCase()} (${name})`,
            body: create,
            response: { 201: record, ...errorResponses(400, 401, 403, 409) },
          },
        },
        async (request, reply) =>
          reply
            .status(201)
            .send((await addToSlice(request.ctx, sliceOf(name, 'POST'), request.body as Record<string, unknown>)) as never),
      );
    }
    if (slice.methods.includes('PUT')) {
      app.put(
        url,
        {
          config: access('PUT'),
          schema: {
            tags,
            summary: `Reemplazar un registro de ${def.label.toLowerCase()} por su id (${name})`,
            body: replace,
            response: { 200: record, ...errorResponses(400, 401, 403, 404, 409) },
          },
        },
        async (request) =>
          replaceInSlice(request.ctx, sliceOf(name, 'PUT'), request.body as Record<string, unknown> & { id: number }) as never,
      );
    }
    if (slice.methods.includes('DELETE')) {
      const ids = slice.deleteBy === 'id' ? sliceDeleteIdSchema : sliceDeleteIdsSchema;
      app.delete(
        url,
        {
          config: access('DELETE'),
          schema: {
            tags,
            summary: `Eliminar de ${def.label.toLowerCase()} (${name}): ${slice.deleteBy === 'id' ? 'un id' : 'una lista de ids'} en el cuerpo`,
            body: ids,
            response: { 200: ids, ...errorResponses(400, 401, 403, 404, 409) },
          },
          // The body is the declared schema, checked by deleteFromSlice with it: a DELETE without data is the
          // spec's 'Unauthorised' (401, §8) and a wrong one names the ids in the message, not the route's 400.
          validatorCompiler: () => (body) => ({ value: body }),
        },
        async (request) => deleteFromSlice(request.ctx, sliceOf(name, 'DELETE'), request.body),
      );
    }
  }

  // Any other collection, or a method a collection does not offer: 'No Data Found' (401) or 405.
  const fallback = {
    config: { access: 'authenticated' as const },
    schema: { hide: true, params: collectionNameParamsSchema.partial(), response: { ...errorResponses(401, 405) } },
  };
  const refuse = async (request: { params: unknown; method: string }) => {
    sliceOf((request.params as { collection?: string }).collection ?? '', request.method as SliceMethod);
  };
  for (const path of ['/app/:collection', '/app/*']) {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      app.route({ method, url: path, ...fallback, handler: refuse });
    }
  }

  // ─── Cart (the topbar's, per user) ──────────────────────────────────────────────────────────────
  const cartAccess = { access: { resource: TEMPLATE_RESOURCE, action: 'READ' } } as const;
  app.get(
    '/api/plantilla/cart',
    { config: cartAccess, schema: { tags, summary: 'Mi carrito', response: { 200: cartSchema, ...errorResponses(401, 403) } } },
    async (request) => getCart(request.ctx),
  );
  app.put(
    '/api/plantilla/cart/:productId',
    {
      config: cartAccess,
      schema: {
        tags,
        summary: 'Poner un producto en mi carrito con una cantidad (mínimo 1)',
        params: cartProductParamsSchema,
        body: cartItemInputSchema,
        response: { 200: cartSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => setCartItem(request.ctx, { productId: request.params.productId, qty: request.body.qty }),
  );
  app.delete(
    '/api/plantilla/cart/:productId',
    {
      config: cartAccess,
      schema: {
        tags,
        summary: 'Quitar un producto de mi carrito',
        params: cartProductParamsSchema,
        response: { 200: cartSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => removeCartItem(request.ctx, { productId: request.params.productId }),
  );

  app.get(
    '/api/plantilla/summary',
    {
      config: cartAccess,
      schema: {
        tags,
        summary: 'Cifras de los tableros de la plantilla',
        response: { 200: templateSummarySchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => dashboardSummary(request.ctx),
  );
};
