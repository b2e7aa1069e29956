import { z } from 'zod';
import { dateSchema, idTextSchema, pickedIdSchema, textSchema } from './fields.ts';
import { exportQueryOf, listQuerySchema } from './list.ts';
import { text } from './messages.ts';

/**
 * Signed webhooks (issue 30): a municipal entity (or the institution, for every entity) registers an HTTPS URL
 * for some of these events; each one is delivered as a signed POST through the outbox (platform/webhooks.ts,
 * platform/webhook-dispatcher.ts), with retries, a delivery log and «Reenviar». `ping` is only the test
 * delivery of «Probar».
 */
export const WEBHOOK_EVENTS = [
  'planilla.validated',
  'planilla.observed',
  'planilla.approved',
  'order.issued',
  'payment.registered',
] as const;
export type WebhookSubscribableEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_PING_EVENT = 'ping' as const;
/** What a delivery's `event` may hold: a subscribable event, or the test ping. */
export const WEBHOOK_DELIVERY_EVENTS = [...WEBHOOK_EVENTS, WEBHOOK_PING_EVENT] as const;
export type WebhookEvent = (typeof WEBHOOK_DELIVERY_EVENTS)[number];

export const webhookSubscribableEventSchema = z.enum(WEBHOOK_EVENTS, { error: text('webhooks.eventInvalid') });
export const webhookEventSchema = z.enum(WEBHOOK_DELIVERY_EVENTS, { error: text('webhooks.eventInvalid') });

export const WEBHOOK_DELIVERY_STATES = ['PENDING', 'SENDING', 'SENT', 'FAILED'] as const;
export const webhookDeliveryStateSchema = z.enum(WEBHOOK_DELIVERY_STATES, { error: text('webhooks.stateInvalid') });
export type WebhookDeliveryState = z.infer<typeof webhookDeliveryStateSchema>;

/** Headers of every delivery (docs/integraciones.md, «Webhooks»). */
export const WEBHOOK_HEADERS = {
  event: 'X-Aporta-Event',
  delivery: 'X-Aporta-Delivery',
  timestamp: 'X-Aporta-Timestamp',
  signature: 'X-Aporta-Signature',
} as const;

/**
 * A webhook's URL as typed: https:// (http:// only to a loopback address, outside production: the server
 * checks that), at most 2000 characters, no credentials or fragment. Where it may point is checked by the
 * server (private addresses refused in production unless WEBHOOK_ALLOW_PRIVATE).
 */
export const webhookUrlSchema = z
  .string({ error: text('webhooks.urlInvalid') })
  .trim()
  .min(1, { error: text('webhooks.urlInvalid') })
  .max(2000, { error: text('webhooks.urlTooLong') })
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && !!u.hostname && !u.username && !u.password && !u.hash;
      } catch {
        return false;
      }
    },
    { error: text('webhooks.urlInvalid') },
  );

const eventsSchema = z
  .array(webhookSubscribableEventSchema, { error: text('webhooks.eventsRequired') })
  .min(1, { error: text('webhooks.eventsRequired') })
  .max(WEBHOOK_EVENTS.length, { error: text('webhooks.eventsRepeated') })
  .refine((list) => new Set(list).size === list.length, { error: text('webhooks.eventsRepeated') });

/** A new endpoint: a name, the entity it serves (null: every entity, for the institution), its URL and events. */
export const webhookEndpointInputSchema = z
  .object({
    name: textSchema({ label: 'Nombre', min: 1, max: 100 }),
    entityId: pickedIdSchema(text('webhooks.entityRequired')).nullable(),
    url: webhookUrlSchema,
    events: eventsSchema,
  })
  .strict();
export type WebhookEndpointInput = z.infer<typeof webhookEndpointInputSchema>;

/** A change to an endpoint: its name, URL, events, or whether it is active (the entity never changes). */
export const webhookEndpointUpdateSchema = z
  .object({
    name: textSchema({ label: 'Nombre', min: 1, max: 100 }).optional(),
    url: webhookUrlSchema.optional(),
    events: eventsSchema.optional(),
    isActive: z.boolean({ error: text('webhooks.activeInvalid') }).optional(),
  })
  .strict();
export type WebhookEndpointUpdate = z.infer<typeof webhookEndpointUpdateSchema>;

export const webhookEndpointSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  entityId: z.number().int().nullable(),
  entityName: z.string().nullable(),
  url: z.string(),
  events: z.array(webhookSubscribableEventSchema),
  isActive: z.boolean(),
  createdById: z.number().int().nullable(),
  createdByEmail: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** The answer to a creation: the endpoint and its signing secret, shown this once. */
export const webhookEndpointCreatedSchema = z.object({ endpoint: webhookEndpointSchema, secret: z.string() });
export type WebhookEndpointCreated = z.infer<typeof webhookEndpointCreatedSchema>;

export const webhookEndpointListQuerySchema = listQuerySchema.extend({
  entityId: idTextSchema.optional(),
  isActive: z.enum(['true', 'false'], { error: text('webhooks.activeInvalid') }).optional(),
});
export type WebhookEndpointListQuery = z.infer<typeof webhookEndpointListQuerySchema>;

/**
 * What a delivery's `data` may carry: ids, references and amounts (decimal strings of quetzales), never a
 * person's data. Each event fills its own fields (docs/integraciones.md).
 */
export const webhookDataSchema = z
  .object({
    entityId: z.number().int().nullable(),
    entityCode: z.string().nullable(),
    planillaId: z.number().int(),
    period: z.string(),
    type: z.string(),
    state: z.string(),
    lineCount: z.number().int(),
    totalEmployee: z.string(),
    totalEmployer: z.string(),
    orderId: z.number().int(),
    reference: z.string(),
    amount: z.string(),
    dueDate: z.string(),
    paymentId: z.number().int(),
    receipt: z.string(),
    payDate: z.string(),
    references: z.array(z.string()),
    message: z.string(),
  })
  .partial()
  .strict();
export type WebhookData = z.infer<typeof webhookDataSchema>;

/** The JSON body of a delivery. */
export const webhookPayloadSchema = z.object({
  event: webhookEventSchema,
  /** The delivery's id (also in X-Aporta-Delivery): the same on every retry and resend. */
  id: z.string(),
  occurred_at: z.string(),
  data: webhookDataSchema,
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  endpointId: z.number().int(),
  endpointName: z.string(),
  url: z.string(),
  entityId: z.number().int().nullable(),
  event: webhookEventSchema,
  state: webhookDeliveryStateSchema,
  attempts: z.number().int(),
  nextAttemptAt: z.string(),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  payload: webhookPayloadSchema,
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** The delivery log's filters: endpoint, event, state and the day it was queued. */
export const webhookDeliveryListQuerySchema = listQuerySchema.extend({
  endpointId: idTextSchema.optional(),
  event: webhookEventSchema.optional(),
  state: webhookDeliveryStateSchema.optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
});
export type WebhookDeliveryListQuery = z.infer<typeof webhookDeliveryListQuerySchema>;
export const webhookDeliveryExportQuerySchema = exportQueryOf(webhookDeliveryListQuerySchema);
export const webhookEndpointExportQuerySchema = exportQueryOf(webhookEndpointListQuerySchema);

/** The entities a user may register endpoints for, and whether they may register institution-wide ones. */
export const webhookEntityOptionsSchema = z.object({
  institutionWide: z.boolean(),
  entities: z.array(z.object({ id: z.number().int(), code: z.string(), name: z.string() })),
});
export type WebhookEntityOptions = z.infer<typeof webhookEntityOptionsSchema>;
