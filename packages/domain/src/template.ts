import { z } from 'zod';
import {
  type CollectionDefinition,
  catalogField,
  collectionContractOf,
  collectionContractPrefix,
  defineCollection,
  type FieldExtra,
  fieldBuilders,
  moneyField,
  statusColors,
} from './catalogs.ts';
import { dateSchema, idSchema } from './fields.ts';
import { text as messageText, textWith } from './messages.ts';
import { applyRate, type Cents, centsToDecimal, MAX_AMOUNT_CENTS, moneyDecimalSchema } from './money.ts';
import { initialsOf } from './people.ts';

/**
 * The template's sample-data areas (spec sections 1, 2, 3, 4, 7 and 9) served for real: CRM,
 * e-commerce, learning, real estate, tickets, invoices, earnings, browser statistics. Each record type
 * is one collection of the catalogue engine (fields declared once, zod-annotated), guarded by the one
 * permission `plantilla`; `templateSlices` maps the spec's data calls `/app/{collection}` onto them.
 */

export const TEMPLATE_RESOURCE = 'plantilla';

/** Spec §9: the simulated backend answers after 500 ms; here only when TEMPLATE_DELAY is switched on. */
export const TEMPLATE_DELAY_MS = 500;

/** Spec §9: sparkline charts are 43 px high; count-up lasts 2 s with 2 decimals on some cards. */
export const SPARKLINE_HEIGHT = 43;
export const COUNT_UP_SECONDS = 2;
export const COUNT_UP_DECIMALS = 2;

// ─── Status sets of spec §4 (values as the spec writes them; Spanish labels for the screens) ───────

const status = <const T extends readonly [string, ...string[]]>(
  label: string,
  values: T,
  labels: Record<T[number], string>,
  colors: Record<T[number], (typeof statusColors)[number]>,
  extra: FieldExtra = {},
) =>
  catalogField(z.enum(values, { error: textWith('catalogs.fieldStatusFromList', { label, values: values.join(', ') }) }), {
    label,
    type: 'status',
    optionLabels: labels,
    colors,
    ...extra,
  });

export const orderStatuses = ['Pending', 'Delivered', 'New', 'Shipping', 'Out of Delivered'] as const;
const orderStatus = (label: string) =>
  status(
    label,
    orderStatuses,
    { Pending: 'Pendiente', Delivered: 'Entregado', New: 'Nuevo', Shipping: 'En envío', 'Out of Delivered': 'En reparto' },
    { Pending: 'yellow', Delivered: 'green', New: 'blue', Shipping: 'cyan', 'Out of Delivered': 'grape' },
  );
export const invoiceStatuses = ['Paid', 'Unpaid', 'Pending', 'Refund'] as const;
export const ticketStatuses = ['Pending', 'Open', 'New', 'Close'] as const;
const activeStatus = (label = 'Estado') =>
  status(
    label,
    ['Active', 'Unactive'] as const,
    { Active: 'Activo', Unactive: 'Inactivo' },
    { Active: 'green', Unactive: 'gray' },
  );

/** The spec's chat presence (§4). */
export const presenceStatuses = ['online', 'away', 'offline'] as const;
export type Presence = (typeof presenceStatuses)[number];
export const presenceLabels: Record<Presence, string> = { online: 'En línea', away: 'Ausente', offline: 'Desconectado' };

// ─── Field helpers ────────────────────────────────────────────────────────────────────────────────

const { text, optionalText, ref, optionalRef, phone, email } = fieldBuilders;
/** The record's picture: a generated placeholder (`data:` URI), never typed in a form. */
const image = (label = 'Imagen') =>
  catalogField(z.string().nullable().optional(), { label, type: 'image', readOnly: true, filterable: false });
const day = (label: string, extra: FieldExtra = {}) =>
  catalogField(dateSchema.clone(), { label, type: 'date', filterable: false, ...extra });
const optionalDay = (label: string, extra: FieldExtra = {}) =>
  catalogField(dateSchema.nullable().optional(), { label, type: 'date', filterable: false, ...extra });
const count = (label: string, max = 1_000_000, extra: FieldExtra = {}) =>
  catalogField(
    z
      .number({ error: textWith('catalogs.fieldWholeNumber', { label }) })
      .int({ error: textWith('catalogs.fieldWholeNumber', { label }) })
      .min(0, { error: textWith('catalogs.fieldNotNegative', { label }) })
      .max(max, { error: textWith('catalogs.fieldMaxValue', { label, max }) }),
    { label, filterable: false, ...extra },
  );
const rating = (label = 'Calificación') =>
  catalogField(
    z
      .number({ error: textWith('catalogs.fieldRatingRange', { label }) })
      .min(0, { error: textWith('catalogs.fieldRatingRange', { label }) })
      .max(5, { error: textWith('catalogs.fieldRatingRange', { label }) })
      .multipleOf(0.1, { error: textWith('catalogs.fieldOneDecimal', { label }) }),
    { label, filterable: false, decimals: 1 },
  );
const price = (label: string, extra: FieldExtra = {}) => moneyField(label, {}, extra);

const base = { resource: TEMPLATE_RESOURCE, defaultSort: '-id' } as const;

/** The collections of the template, keyed by engine name. */
export const templateCollectionDefinitions = {
  leads: defineCollection({
    ...base,
    name: 'leads',
    label: 'Prospectos',
    displayField: 'name',
    shape: {
      img: image('Foto'),
      name: text('Nombre', 120, { searchable: true }),
      phone: phone('Teléfono'),
      score: count('Puntuación', 100),
      location: text('Ubicación', 120, { searchable: true }),
      date: day('Fecha'),
    },
  }),
  deals: defineCollection({
    ...base,
    name: 'deals',
    label: 'Negocios',
    displayField: 'title',
    shape: {
      img: image('Foto'),
      title: text('Negocio', 120, { searchable: true }),
      subtitle: optionalText('Descripción', 200),
      price: price('Valor'),
    },
  }),
  'crm-tasks': defineCollection({
    ...base,
    name: 'crm-tasks',
    label: 'Tareas',
    displayField: 'title',
    shape: {
      title: text('Tarea', 160, { searchable: true }),
      content: optionalText('Detalle', 500),
      date: day('Fecha'),
    },
  }),
  'sales-orders': defineCollection({
    ...base,
    name: 'sales-orders',
    label: 'Ventas',
    displayField: 'orderId',
    shape: {
      date: day('Fecha'),
      orderId: text('Orden', 20, { unique: true, searchable: true }),
      shop: text('Tienda', 120, { searchable: true }),
      customer: text('Cliente', 120, { searchable: true }),
      product: text('Producto', 160),
      amount: price('Monto'),
      status: orderStatus('Estado'),
      rating: rating(),
    },
  }),
  products: defineCollection({
    ...base,
    name: 'products',
    label: 'Productos',
    displayField: 'title',
    shape: {
      img: image(),
      title: text('Producto', 160, { searchable: true }),
      category: text('Categoría', 80, { searchable: true }),
      stock: count('Existencias'),
      price: price('Precio'),
      discount: count('Descuento (%)', 100, { inList: false }),
      orders: count('Pedidos'),
      ratings: rating(),
      publish: day('Publicado'),
      tag: optionalText('Etiqueta', 40, { inList: false }),
      mrp: price('Precio de lista', { inList: false }),
    },
  }),
  sellers: defineCollection({
    ...base,
    name: 'sellers',
    label: 'Vendedores',
    displayField: 'name',
    shape: {
      img: image('Logotipo'),
      name: text('Empresa', 120, { searchable: true }),
      seller: text('Vendedor', 120, { searchable: true }),
      email: email('Correo electrónico'),
      phone: phone('Teléfono'),
      stock: count('Existencias'),
      revenue: price('Ingresos'),
    },
  }),
  'shop-orders': defineCollection({
    ...base,
    name: 'shop-orders',
    label: 'Pedidos',
    displayField: 'product',
    shape: {
      orderDate: day('Fecha del pedido'),
      deliveryDate: optionalDay('Fecha de entrega'),
      product: text('Producto', 160, { searchable: true }),
      customer: text('Cliente', 120, { searchable: true }),
      shop: text('Tienda', 120),
      payMethod: catalogField(
        z.enum(['Tarjeta', 'Efectivo', 'Transferencia', 'Contra entrega'], {
          error: messageText('settings.paymentMethodNotInList'),
        }),
        { label: 'Forma de pago' },
      ),
      price: price('Monto'),
      ratings: rating(),
      deliveryStatus: orderStatus('Estado de entrega'),
    },
  }),
  customers: defineCollection({
    ...base,
    name: 'customers',
    label: 'Clientes',
    displayField: 'name',
    shape: {
      img: image('Foto'),
      name: text('Nombre', 120, { searchable: true }),
      email: email('Correo electrónico', { searchable: true }),
      phone: phone('Teléfono'),
      createDate: day('Alta'),
      status: status(
        'Estado',
        ['Active', 'Unactive', 'Block'] as const,
        { Active: 'Activo', Unactive: 'Inactivo', Block: 'Bloqueado' },
        { Active: 'green', Unactive: 'gray', Block: 'red' },
      ),
    },
  }),
  invoices: defineCollection({
    ...base,
    name: 'invoices',
    label: 'Facturas',
    displayField: 'invoiceNo',
    shape: {
      invoiceNo: text('Factura', 20, { unique: true, searchable: true }),
      customer: text('Cliente', 120, { searchable: true }),
      email: email('Correo electrónico'),
      createDate: day('Emitida'),
      dueDate: day('Vence'),
      invoiceAmount: price('Monto'),
      status: status(
        'Estado',
        invoiceStatuses,
        { Paid: 'Pagada', Unpaid: 'No pagada', Pending: 'Pendiente', Refund: 'Reembolsada' },
        { Paid: 'green', Unpaid: 'red', Pending: 'yellow', Refund: 'blue' },
      ),
    },
  }),
  'course-categories': defineCollection({
    ...base,
    name: 'course-categories',
    label: 'Categorías de cursos',
    displayField: 'name',
    defaultSort: 'name',
    shape: {
      name: text('Categoría', 80, { unique: true, searchable: true }),
      color: catalogField(z.enum(statusColors, { error: messageText('catalogs.colorNotInList') }), { label: 'Color' }),
    },
  }),
  instructors: defineCollection({
    ...base,
    name: 'instructors',
    label: 'Instructores',
    displayField: 'name',
    shape: {
      img: image('Foto'),
      name: text('Nombre', 120, { searchable: true }),
      designation: text('Especialidad', 120, { searchable: true }),
      totalCourse: count('Cursos'),
      email: email('Correo electrónico'),
      experience: count('Años de experiencia', 60),
      students: count('Estudiantes'),
      contact: phone('Teléfono', { inList: false }),
      rating: rating(),
      status: activeStatus(),
    },
  }),
  courses: defineCollection({
    ...base,
    name: 'courses',
    label: 'Cursos',
    displayField: 'name',
    shape: {
      img: image(),
      name: text('Curso', 160, { searchable: true }),
      categoryId: ref('Categoría', 'course-categories', 'name'),
      instructorId: optionalRef('Instructor', 'instructors', 'name'),
      lessons: count('Lecciones', 500),
      duration: text('Duración', 40, { inList: false }),
      students: count('Estudiantes'),
      fees: price('Cuota'),
      rating: rating(),
      level: status(
        'Nivel',
        ['Beginner', 'Intermediate', 'Advance'] as const,
        { Beginner: 'Principiante', Intermediate: 'Intermedio', Advance: 'Avanzado' },
        { Beginner: 'teal', Intermediate: 'indigo', Advance: 'grape' },
      ),
      status: status(
        'Estado',
        ['Open', 'Close'] as const,
        { Open: 'Abierto', Close: 'Cerrado' },
        { Open: 'green', Close: 'red' },
      ),
    },
  }),
  subscriptions: defineCollection({
    ...base,
    name: 'subscriptions',
    label: 'Suscripciones',
    displayField: 'title',
    shape: {
      img: image(),
      title: text('Plan', 120, { searchable: true }),
      type: catalogField(z.enum(['Mensual', 'Trimestral', 'Anual'], { error: messageText('settings.typeNotInList') }), {
        label: 'Tipo',
      }),
      price: price('Precio'),
      duration: text('Duración', 40),
      status: activeStatus(),
      dueDate: optionalDay('Próximo cobro'),
    },
  }),
  agents: defineCollection({
    ...base,
    name: 'agents',
    label: 'Agentes',
    displayField: 'name',
    shape: {
      img: image('Foto'),
      name: text('Nombre', 120, { searchable: true }),
      joiningDate: day('Ingreso'),
      property: count('Propiedades'),
      location: text('Ubicación', 120, { searchable: true }),
      email: email('Correo electrónico'),
      contact: phone('Teléfono'),
      status: activeStatus(),
    },
  }),
  agencies: defineCollection({
    ...base,
    name: 'agencies',
    label: 'Agencias',
    displayField: 'name',
    shape: {
      img: image('Logotipo'),
      name: text('Agencia', 120, { searchable: true }),
      since: count('Desde (año)', 2100),
      location: text('Ubicación', 120, { searchable: true }),
      property: count('Propiedades'),
      employee: count('Empleados'),
      email: email('Correo electrónico'),
      contact: phone('Teléfono'),
    },
  }),
  properties: defineCollection({
    ...base,
    name: 'properties',
    label: 'Propiedades',
    displayField: 'title',
    shape: {
      img: image(),
      title: text('Propiedad', 160, { searchable: true }),
      type: catalogField(
        z.enum(['Casa', 'Apartamento', 'Villa', 'Oficina', 'Terreno'], { error: messageText('settings.typeNotInList') }),
        { label: 'Tipo' },
      ),
      location: text('Dirección', 160, { searchable: true, inList: false }),
      city: text('Ciudad', 80, { searchable: true }),
      bedroom: count('Habitaciones', 50),
      bathroom: count('Baños', 50),
      area: count('Área (m²)', 1_000_000),
      rating: rating(),
      price: price('Precio'),
      starred: catalogField(z.boolean().default(false), { label: 'Destacada' }),
      agentId: optionalRef('Agente', 'agents', 'name'),
      requirement: status(
        'Operación',
        ['Sale', 'Rent'] as const,
        { Sale: 'Venta', Rent: 'Alquiler' },
        { Sale: 'blue', Rent: 'orange' },
      ),
    },
  }),
  'property-feedback': defineCollection({
    ...base,
    name: 'property-feedback',
    label: 'Opiniones de propiedades',
    displayField: 'name',
    shape: {
      img: image('Foto'),
      name: text('Nombre', 120, { searchable: true }),
      content: text('Opinión', 1000, { searchable: true }),
      time: day('Fecha'),
    },
  }),
  transactions: defineCollection({
    ...base,
    name: 'transactions',
    label: 'Transacciones',
    displayField: 'transactionId',
    shape: {
      transactionId: text('Transacción', 20, { unique: true, searchable: true }),
      date: day('Fecha'),
      details: text('Detalle', 200, { searchable: true }),
      type: status(
        'Tipo',
        ['Debit', 'Credit'] as const,
        { Debit: 'Débito', Credit: 'Crédito' },
        { Debit: 'red', Credit: 'green' },
      ),
      amount: price('Monto'),
      status: status(
        'Estado',
        ['Pending', 'Successful', 'Cancelled'] as const,
        { Pending: 'Pendiente', Successful: 'Exitosa', Cancelled: 'Cancelada' },
        { Pending: 'yellow', Successful: 'green', Cancelled: 'gray' },
      ),
    },
  }),
  'support-tickets': defineCollection({
    ...base,
    name: 'support-tickets',
    label: 'Tickets de soporte',
    displayField: 'ticketTitle',
    shape: {
      ticketTitle: text('Asunto', 200, { searchable: true }),
      clientName: text('Cliente', 120, { searchable: true }),
      assignedTo: optionalRef('Asignado a', 'users', 'name'),
      createDate: day('Creado'),
      dueDate: optionalDay('Vence'),
      priority: status(
        'Prioridad',
        ['Low', 'Medium', 'High'] as const,
        { Low: 'Baja', Medium: 'Media', High: 'Alta' },
        { Low: 'teal', Medium: 'yellow', High: 'red' },
      ),
      status: status(
        'Estado',
        ticketStatuses,
        { Pending: 'Pendiente', Open: 'Abierto', New: 'Nuevo', Close: 'Cerrado' },
        { Pending: 'yellow', Open: 'blue', New: 'cyan', Close: 'gray' },
      ),
    },
  }),
  calls: defineCollection({
    ...base,
    name: 'calls',
    label: 'Llamadas',
    displayField: 'name',
    shape: {
      name: text('Contacto', 120, { searchable: true }),
      date: day('Fecha'),
      time: text('Hora', 5),
      kind: status(
        'Tipo',
        ['Entrante', 'Saliente', 'Perdida'] as const,
        { Entrante: 'Entrante', Saliente: 'Saliente', Perdida: 'Perdida' },
        { Entrante: 'green', Saliente: 'blue', Perdida: 'red' },
      ),
    },
  }),
  'browser-stats': defineCollection({
    ...base,
    name: 'browser-stats',
    label: 'Estadísticas de navegadores',
    displayField: 'browser',
    defaultSort: '-click',
    shape: {
      img: image('Icono'),
      browser: text('Navegador', 60, { unique: true, searchable: true }),
      click: count('Visitas', 100_000_000),
      rate: catalogField(
        z
          .number({ error: messageText('settings.percentRange') })
          .min(0, { error: messageText('settings.percentRange') })
          .max(100, { error: messageText('settings.percentRange') })
          .multipleOf(0.01, { error: messageText('settings.percentDecimals') }),
        { label: 'Porcentaje', filterable: false, decimals: 2 },
      ),
    },
  }),
  'top-pages': defineCollection({
    ...base,
    name: 'top-pages',
    label: 'Páginas más visitadas',
    displayField: 'activePage',
    defaultSort: '-users',
    shape: {
      activePage: text('Página', 200, { unique: true, searchable: true }),
      active: count('Activos ahora', 100_000_000),
      users: count('Usuarios', 100_000_000),
    },
  }),
} as const satisfies Record<string, CollectionDefinition>;

export type TemplateCollectionName = keyof typeof templateCollectionDefinitions;
export const templateCollectionNames = Object.keys(templateCollectionDefinitions) as TemplateCollectionName[];

// ─── The spec's data calls (§7): /app/{collection} ────────────────────────────────────────────────

export type SliceMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface TemplateSlice {
  /** The collection behind it, or `chat` for the chat's own slices (served by the chat module). */
  collection: TemplateCollectionName | 'chat';
  methods: readonly SliceMethod[];
  /** DELETE body: a list of ids (default), or a single id (seller, courseGrid, customerList). */
  deleteBy?: 'ids' | 'id';
  /** Exact-match filters fixed for this slice (sale and rent properties). */
  filter?: Record<string, string>;
  /** Order of the answer (default: the newest first, so an added record is first). */
  sort?: string;
  limit?: number;
}

const read = ['GET'] as const;
const crud = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** Every collection spec §3 lists as served by the simulated backend, as the real server answers it. */
export const templateSlices = {
  browser: { collection: 'browser-stats', methods: read, sort: '-click' },
  toppage: { collection: 'top-pages', methods: read, sort: '-users' },
  table: { collection: 'sales-orders', methods: read, limit: 5 },
  lead: { collection: 'leads', methods: read },
  deal: { collection: 'deals', methods: read },
  tasks: { collection: 'crm-tasks', methods: read, sort: 'date' },
  sales: { collection: 'sales-orders', methods: read },
  order: { collection: 'shop-orders', methods: read },
  products: { collection: 'products', methods: read },
  instructor: { collection: 'instructors', methods: read },
  instructorlist: { collection: 'instructors', methods: crud },
  instructorGrid: { collection: 'instructors', methods: crud },
  recentcourse: { collection: 'courses', methods: read, limit: 5 },
  property: { collection: 'properties', methods: read },
  feedback: { collection: 'property-feedback', methods: read },
  saleproperty: { collection: 'properties', methods: read, filter: { requirement: 'Sale' } },
  rentproperty: { collection: 'properties', methods: read, filter: { requirement: 'Rent' } },
  listingGrid: { collection: 'properties', methods: crud },
  listingList: { collection: 'properties', methods: read },
  listinglistcard: { collection: 'properties', methods: read, limit: 4 },
  agent: { collection: 'agents', methods: crud },
  agencies: { collection: 'agencies', methods: crud },
  supporttickets: { collection: 'support-tickets', methods: read },
  ticketList: { collection: 'support-tickets', methods: crud },
  message: { collection: 'chat', methods: read },
  chatData: { collection: 'chat', methods: read },
  channnellist: { collection: 'chat', methods: read },
  chatContactData: { collection: 'chat', methods: read },
  attachementsData: { collection: 'chat', methods: read },
  callsData: { collection: 'calls', methods: read },
  bookmarkData: { collection: 'chat', methods: read },
  productList: { collection: 'products', methods: crud },
  customerList: { collection: 'customers', methods: crud, deleteBy: 'id' },
  invoiceList: { collection: 'invoices', methods: ['GET', 'DELETE'] },
  invoice: { collection: 'invoices', methods: read },
  sellerOverview: { collection: 'sellers', methods: crud },
  seller: { collection: 'sellers', methods: crud, deleteBy: 'id' },
  orderList: { collection: 'shop-orders', methods: crud },
  category: { collection: 'course-categories', methods: ['GET', 'POST'], sort: 'name' },
  estateList: { collection: 'properties', methods: read },
  earningdata: { collection: 'transactions', methods: read },
  earningcard: { collection: 'transactions', methods: read },
  subscription: { collection: 'subscriptions', methods: read },
  cources: { collection: 'courses', methods: read },
  courseList: { collection: 'courses', methods: crud },
  courseGrid: { collection: 'courses', methods: crud, deleteBy: 'id' },
} as const satisfies Record<string, TemplateSlice>;

export type TemplateSliceName = keyof typeof templateSlices;
export const templateSliceNames = Object.keys(templateSlices) as TemplateSliceName[];
export const isTemplateSlice = (v: string): v is TemplateSliceName => Object.hasOwn(templateSlices, v);

/** The named contract schemas of a slice's collection besides its record (see `templateSliceContractOf`). */
export interface TemplateSliceContract {
  /** GET: the records (`LeadsRecordList`). */
  list: z.ZodArray<ReturnType<typeof collectionContractOf>['record']>;
  /** PUT: the record's id and every field, as on a create (`LeadsReplace`). */
  replace: z.ZodObject;
}

const sliceContracts = new WeakMap<CollectionDefinition, TemplateSliceContract>();

/**
 * What the slices of one collection answer and take, built once per collection and named after it like
 * its record and bodies (`collectionContractOf`, catalogs.ts): the slices of a collection share them.
 */
export function templateSliceContractOf(def: CollectionDefinition): TemplateSliceContract {
  const known = sliceContracts.get(def);
  if (known) return known;
  const prefix = collectionContractPrefix(def.name);
  const contract: TemplateSliceContract = {
    list: z.array(collectionContractOf(def).record).meta({ id: `${prefix}RecordList` }),
    replace: def.input.extend({ id: idSchema }).meta({ id: `${prefix}Replace` }),
  };
  sliceContracts.set(def, contract);
  return contract;
}

/** DELETE /app/{collection} with a list: the ids, at least one, each a record id. */
export const sliceDeleteIdsSchema = z
  .array(
    z
      .number({ error: messageText('settings.deleteIdNotInteger') })
      .int()
      .positive()
      .max(2_147_483_647),
    {
      error: messageText('settings.deleteIdsBody'),
    },
  )
  .min(1, { error: messageText('settings.deleteIdsMin') })
  .max(1000, { error: messageText('settings.deleteIdsMax') });
/** DELETE /app/{seller|courseGrid|customerList}: one id. */
export const sliceDeleteIdSchema = z
  .number({ error: messageText('settings.deleteIdBody') })
  .int({ error: messageText('settings.idPositiveInteger') })
  .positive({ error: messageText('settings.idPositiveInteger') })
  .max(2_147_483_647, { error: messageText('settings.idPositiveInteger') });

// ─── Cart (spec §2 and §9) ────────────────────────────────────────────────────────────────────────

/** Spec §9: tax 0.125, shipping 65.00, discount 0.15 — as rates (percent, 4 decimals) and cents. */
export const CART_TAX_RATE = '12.5000';
export const CART_DISCOUNT_RATE = '15.0000';
export const CART_SHIPPING_CENTS: Cents = 6500n;
export const CART_MAX_QTY = 999;

export const cartQtySchema = z
  .number({ error: messageText('settings.quantityInteger') })
  .int({ error: messageText('settings.quantityInteger') })
  .min(1, { error: messageText('settings.quantityMin') })
  .max(CART_MAX_QTY, { error: messageText('settings.quantityMax') });
export const cartItemInputSchema = z.strictObject({ qty: cartQtySchema });
export const cartProductParamsSchema = z.object({
  productId: z.coerce
    .number({ error: messageText('settings.productIdInvalid') })
    .int()
    .positive({ error: messageText('settings.productIdInvalid') })
    .max(2_147_483_647),
});

export interface CartTotals {
  subtotal: Cents;
  discount: Cents;
  tax: Cents;
  shipping: Cents;
  total: Cents;
}

/**
 * The demo cart's totals, exact in cents: discount 15 % and tax 12.5 % of the subtotal (each rounded
 * half-up to the cent once), shipping 65.00 when the cart holds anything; total = subtotal − discount
 * + tax + shipping.
 */
export function cartTotals(lines: readonly { price: Cents; qty: number }[]): CartTotals {
  const subtotal = lines.reduce((sum, l) => sum + l.price * BigInt(l.qty), 0n);
  if (subtotal > MAX_AMOUNT_CENTS) throw new RangeError('El total del carrito supera el máximo permitido.');
  const discount = applyRate(subtotal, CART_DISCOUNT_RATE);
  const tax = applyRate(subtotal, CART_TAX_RATE);
  const shipping = lines.length > 0 ? CART_SHIPPING_CENTS : 0n;
  return { subtotal, discount, tax, shipping, total: subtotal - discount + tax + shipping };
}

const decimal = z.string();
export const cartLineSchema = z.object({
  productId: z.number().int(),
  title: z.string(),
  category: z.string(),
  img: z.string().nullable(),
  price: decimal,
  qty: z.number().int(),
  lineTotal: decimal,
});
export const cartSchema = z.object({
  items: z.array(cartLineSchema),
  subtotal: decimal,
  discount: decimal,
  tax: decimal,
  shipping: decimal,
  total: decimal,
  count: z.number().int(),
});
export type Cart = z.infer<typeof cartSchema>;

/** The cart as the API answers it: money as decimal text. */
export function cartOf(
  lines: readonly { productId: number; title: string; category: string; img: string | null; price: Cents; qty: number }[],
): Cart {
  const t = cartTotals(lines);
  return {
    items: lines.map((l) => ({ ...l, price: centsToDecimal(l.price), lineTotal: centsToDecimal(l.price * BigInt(l.qty)) })),
    subtotal: centsToDecimal(t.subtotal),
    discount: centsToDecimal(t.discount),
    tax: centsToDecimal(t.tax),
    shipping: centsToDecimal(t.shipping),
    total: centsToDecimal(t.total),
    count: lines.reduce((n, l) => n + l.qty, 0),
  };
}

// ─── Dashboards ───────────────────────────────────────────────────────────────────────────────────

const int = z.number().int();
/** How many records are in each of `values`: a value no record has is left out. */
const countsOf = <const T extends readonly string[]>(values: T) =>
  z.object(Object.fromEntries(values.map((v) => [v, int.optional()])) as { [K in T[number]]: z.ZodOptional<typeof int> });

/**
 * GET /api/plantilla/summary: the figures of the template's dashboards, computed from the tables (never
 * stored). Amounts as exact decimal text; `averageScore`: the leads' average score as decimal text.
 */
export const templateSummarySchema = z.object({
  crm: z.object({ leads: int, averageScore: z.string(), deals: int, dealsValue: moneyDecimalSchema, tasks: int }),
  ecommerce: z.object({
    sales: int,
    salesTotal: moneyDecimalSchema,
    orders: int,
    ordersTotal: moneyDecimalSchema,
    customers: int,
    products: int,
    stock: int,
    ordersByStatus: countsOf(orderStatuses),
    /** The last 7 days with orders: each day's amount. */
    dailyOrders: z.array(z.object({ day: z.string(), total: moneyDecimalSchema })),
  }),
  learning: z.object({
    courses: int,
    students: int,
    instructors: int,
    activeSubscriptions: int,
    subscriptionsValue: moneyDecimalSchema,
  }),
  realEstate: z.object({ properties: int, forSale: int, forRent: int }),
  /** Invoices by state (one of `invoiceStatuses`): how many and their amount; a state no invoice has is left out. */
  invoices: z.array(z.object({ status: z.string(), count: int, amount: moneyDecimalSchema })),
  tickets: countsOf(ticketStatuses),
  earnings: z.object({
    credits: moneyDecimalSchema,
    debits: moneyDecimalSchema,
    pending: moneyDecimalSchema,
    balance: moneyDecimalSchema,
  }),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;

// ─── Generated placeholder pictures ───────────────────────────────────────────────────────────────

const palette = ['#405189', '#0ab39c', '#f06548', '#f7b84b', '#299cdb', '#6559cc', '#e83e8c', '#3577f1', '#20c997', '#495057'];

/** A stable colour for a text. */
export function placeholderColor(seed: string): string {
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return palette[h % palette.length];
}

/** Initials of a name (people.ts rule): its first two words. */
const nameInitials = (name: string) => {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return initialsOf({ firstName, lastName: rest.join(' ') }) || '?';
};

const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A square SVG picture with the initials of `name` on its colour, as a `data:` URI (no external address). */
export function placeholderImage(name: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="12" fill="${placeholderColor(name)}"/><text x="48" y="58" font-family="sans-serif" font-size="34" font-weight="600" fill="#fff" text-anchor="middle">${xmlEscape(nameInitials(name))}</text></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
