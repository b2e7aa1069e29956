import { decimalToCents, placeholderImage } from '@aporta/domain';
import { asc, count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import {
  chatConversations,
  chatMembers,
  chatMessages,
  tplAgencies,
  tplAgents,
  tplBrowserStats,
  tplCalls,
  tplCourseCategories,
  tplCourses,
  tplCustomers,
  tplDeals,
  tplInstructors,
  tplInvoices,
  tplLeads,
  tplProducts,
  tplProperties,
  tplPropertyFeedback,
  tplSalesOrders,
  tplSellers,
  tplShopOrders,
  tplSubscriptions,
  tplSupportTickets,
  tplTasks,
  tplTopPages,
  tplTransactions,
  users,
} from '../db/schema/index.ts';

/**
 * The template's sample data (issue 18): 5 to 15 plausible Spanish records per collection, pictures as
 * generated placeholders (data: URIs, no external address). Each table is filled only while empty, so
 * running it again changes nothing and records people added or deleted stay as they are.
 */
const q = (decimal: string) => decimalToCents(decimal);
const img = placeholderImage;

async function fill<T extends PgTable>(db: Db, table: T, rows: T['$inferInsert'][]): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(table as PgTable);
  if (Number(n) > 0) return false;
  await db.insert(table).values(rows as never);
  return true;
}

const people = [
  'María José Ramírez',
  'Carlos Enrique López',
  'Ana Lucía Morales',
  'José Manuel Castillo',
  'Sofía Alejandra Pérez',
  'Luis Fernando García',
  'Gabriela Hernández',
  'Diego Armando Reyes',
  'Valeria Cifuentes',
  'Jorge Mario Estrada',
];

export async function seedTemplate(db: Db): Promise<void> {
  await fill(
    db,
    tplLeads,
    people.slice(0, 8).map((name, i) => ({
      img: img(name),
      name,
      phone: `+502 5${i}12 34${i}${i}`,
      score: [92, 78, 65, 88, 54, 71, 83, 60][i],
      location: [
        'Guatemala',
        'Quetzaltenango',
        'Escuintla',
        'Cobán',
        'Antigua Guatemala',
        'Huehuetenango',
        'Zacapa',
        'Retalhuleu',
      ][i],
      date: `2026-0${1 + (i % 6)}-1${i}`,
    })),
  );
  await fill(
    db,
    tplDeals,
    [
      ['Renovación de licencias', 'Municipalidad de Mixco', '45000.00'],
      ['Capacitación de personal', 'Empresa Municipal de Agua', '12500.00'],
      ['Implementación de portal', 'Mancomunidad Gran Ciudad del Sur', '98000.00'],
      ['Soporte anual', 'Municipalidad de Villa Nueva', '36000.00'],
      ['Digitalización de archivo', 'Municipalidad de Chinautla', '27800.50'],
      ['Consultoría actuarial', 'Plan de Prestaciones', '64000.00'],
    ].map(([title, subtitle, price]) => ({ img: img(title), title, subtitle, price: q(price) })),
  );
  await fill(
    db,
    tplTasks,
    [
      ['Llamar a la Municipalidad de Mixco', 'Confirmar fecha de la presentación.', '2026-07-02'],
      ['Enviar propuesta económica', 'Adjuntar el detalle de licencias.', '2026-07-03'],
      ['Revisar contrato de soporte', null, '2026-07-06'],
      ['Preparar demostración del portal', 'Datos de ejemplo de tres entidades.', '2026-07-08'],
      ['Reunión de seguimiento', 'Con el equipo de tesorería.', '2026-07-10'],
      ['Actualizar lista de prospectos', null, '2026-07-13'],
    ].map(([title, content, date]) => ({ title: title!, content, date: date! })),
  );
  const shops = ['Librería Central', 'Ferretería El Martillo', 'Tienda La Esperanza', 'Papelería Escolar', 'Electro Hogar'];
  const productNames = [
    'Silla ergonómica',
    'Archivo metálico',
    'Impresora láser',
    'Resma de papel carta',
    'Monitor de 24 pulgadas',
  ];
  const orderStatuses = ['Pending', 'Delivered', 'New', 'Shipping', 'Out of Delivered'] as const;
  await fill(
    db,
    tplSalesOrders,
    Array.from({ length: 10 }, (_, i) => ({
      date: `2026-06-${String(10 + i).padStart(2, '0')}`,
      orderId: `VZ${2101 + i}`,
      shop: shops[i % shops.length],
      customer: people[i % people.length],
      product: productNames[(i * 2) % productNames.length],
      amount: q(['1250.00', '389.99', '2450.50', '75.00', '1899.00'][i % 5]),
      status: orderStatuses[i % orderStatuses.length],
      rating: [4.5, 3.8, 5, 4.2, 4.9][i % 5],
    })),
  );
  const productRows: [string, string, string, string][] = [
    ['Silla ergonómica con soporte lumbar', 'Mobiliario', '1250.00', '1450.00'],
    ['Archivo metálico de cuatro gavetas', 'Mobiliario', '2199.00', '2499.00'],
    ['Impresora láser monocromática', 'Equipo', '1899.99', '2100.00'],
    ['Resma de papel carta 75 g', 'Papelería', '42.50', '48.00'],
    ['Monitor de 24 pulgadas', 'Equipo', '1375.00', '1599.00'],
    ['Teclado inalámbrico', 'Equipo', '249.90', '299.00'],
    ['Engrapadora de escritorio', 'Papelería', '65.00', '79.00'],
    ['Escritorio en L', 'Mobiliario', '3450.00', '3900.00'],
    ['Lámpara LED de escritorio', 'Iluminación', '189.00', '219.00'],
    ['Disco duro externo 2 TB', 'Equipo', '749.00', '849.00'],
  ];
  await fill(
    db,
    tplProducts,
    productRows.map(([title, category, price, mrp], i) => ({
      img: img(title),
      title,
      category,
      stock: [12, 8, 5, 240, 15, 30, 60, 4, 25, 18][i],
      price: q(price),
      discount: [14, 12, 10, 11, 14, 16, 18, 12, 14, 12][i],
      orders: [48, 21, 33, 310, 27, 64, 90, 9, 41, 37][i],
      ratings: [4.6, 4.1, 4.4, 4.9, 4.3, 3.9, 4.0, 4.7, 4.2, 4.5][i],
      publish: `2026-0${1 + (i % 6)}-${String(5 + i).padStart(2, '0')}`,
      tag: i % 3 === 0 ? 'Oferta' : null,
      mrp: q(mrp),
    })),
  );
  await fill(
    db,
    tplSellers,
    shops.concat(['Distribuidora del Sur', 'Comercial Los Altos']).map((name, i) => ({
      img: img(name),
      name,
      seller: people[(i + 3) % people.length],
      email: `ventas${i + 1}@comercio.gt`,
      phone: `+502 2${i}45 67${i}8`,
      stock: [420, 180, 95, 610, 250, 330, 140][i],
      revenue: q(['54820.00', '23410.75', '8760.00', '91200.40', '37500.00', '45210.90', '19880.00'][i]),
    })),
  );
  const payMethods = ['Tarjeta', 'Efectivo', 'Transferencia', 'Contra entrega'] as const;
  await fill(
    db,
    tplShopOrders,
    Array.from({ length: 12 }, (_, i) => ({
      orderDate: `2026-06-${String(1 + i * 2).padStart(2, '0')}`,
      deliveryDate: i % 4 === 0 ? null : `2026-06-${String(4 + i * 2).padStart(2, '0')}`,
      product: productRows[i % productRows.length][0],
      customer: people[(i + 1) % people.length],
      shop: shops[i % shops.length],
      payMethod: payMethods[i % payMethods.length],
      price: q(productRows[i % productRows.length][2]),
      ratings: [4.5, 4.0, 3.5, 5, 4.8, 4.2][i % 6],
      deliveryStatus: orderStatuses[i % orderStatuses.length],
    })),
  );
  const customerStatuses = ['Active', 'Active', 'Unactive', 'Active', 'Block'] as const;
  await fill(
    db,
    tplCustomers,
    people.map((name, i) => ({
      img: img(name),
      name,
      email: `${name
        .split(' ')[0]
        .toLowerCase()
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')}.${i + 1}@correo.gt`,
      phone: `+502 4${i}98 76${i}5`,
      createDate: `2025-${String(1 + i).padStart(2, '0')}-15`,
      status: customerStatuses[i % customerStatuses.length],
    })),
  );
  const invoiceStatuses = ['Paid', 'Unpaid', 'Pending', 'Refund', 'Paid'] as const;
  await fill(
    db,
    tplInvoices,
    Array.from({ length: 10 }, (_, i) => ({
      invoiceNo: `FAC-${String(2026001 + i)}`,
      customer: people[i % people.length],
      email: `facturacion${i + 1}@correo.gt`,
      createDate: `2026-05-${String(2 + i * 2).padStart(2, '0')}`,
      dueDate: `2026-06-${String(2 + i * 2).padStart(2, '0')}`,
      invoiceAmount: q(
        ['875.00', '1240.50', '3300.00', '415.25', '2150.00', '990.90', '5120.00', '760.00', '1480.75', '2600.00'][i],
      ),
      status: invoiceStatuses[i % invoiceStatuses.length],
    })),
  );
  await fill(
    db,
    tplCourseCategories,
    [
      ['Finanzas públicas', 'blue'],
      ['Tecnología', 'violet'],
      ['Atención al público', 'teal'],
      ['Legislación', 'orange'],
      ['Seguridad social', 'green'],
    ].map(([name, color]) => ({ name: name!, color: color! })),
  );
  await fill(
    db,
    tplInstructors,
    [
      ['Lucía Barrios', 'Contadora pública'],
      ['Andrés Samayoa', 'Ingeniero de sistemas'],
      ['Patricia Orellana', 'Abogada laboralista'],
      ['Roberto Mazariegos', 'Actuario'],
      ['Elena Godoy', 'Especialista en servicio'],
      ['Fernando Alvarado', 'Analista de datos'],
    ].map(([name, designation], i) => ({
      img: img(name!),
      name: name!,
      designation: designation!,
      totalCourse: [4, 6, 3, 2, 5, 3][i],
      email: `${name!.split(' ')[0].toLowerCase()}@capacitacion.gt`,
      experience: [8, 12, 15, 20, 6, 9][i],
      students: [320, 540, 210, 150, 410, 275][i],
      contact: `+502 3${i}11 22${i}3`,
      rating: [4.8, 4.6, 4.9, 4.4, 4.7, 4.3][i],
      status: i === 3 ? 'Unactive' : 'Active',
    })),
  );
  const cats = await db.select({ id: tplCourseCategories.id }).from(tplCourseCategories).orderBy(asc(tplCourseCategories.id));
  const teachers = await db.select({ id: tplInstructors.id }).from(tplInstructors).orderBy(asc(tplInstructors.id));
  if (cats.length && teachers.length) {
    const levels = ['Beginner', 'Intermediate', 'Advance'] as const;
    await fill(
      db,
      tplCourses,
      [
        'Presupuesto municipal',
        'Excel para planillas',
        'Ley orgánica del plan',
        'Cálculo de pensiones',
        'Servicio al afiliado',
        'Firma electrónica avanzada',
        'Análisis de datos con SQL',
        'Control interno',
      ].map((name, i) => ({
        img: img(name),
        name,
        categoryId: cats[i % cats.length].id,
        instructorId: teachers[i % teachers.length].id,
        lessons: [12, 18, 8, 15, 6, 10, 20, 9][i],
        duration: ['6 semanas', '8 semanas', '4 semanas', '7 semanas', '3 semanas', '5 semanas', '10 semanas', '4 semanas'][i],
        students: [85, 140, 60, 45, 120, 75, 98, 52][i],
        fees: q(['450.00', '350.00', '0.00', '600.00', '250.00', '500.00', '750.00', '300.00'][i]),
        rating: [4.7, 4.8, 4.2, 4.5, 4.9, 4.6, 4.4, 4.1][i],
        level: levels[i % levels.length],
        status: i % 4 === 3 ? 'Close' : 'Open',
      })),
    );
  }
  await fill(
    db,
    tplSubscriptions,
    [
      ['Plan Básico', 'Mensual', '99.00', '1 mes'],
      ['Plan Profesional', 'Mensual', '199.00', '1 mes'],
      ['Plan Institucional', 'Anual', '1999.00', '12 meses'],
      ['Plan Trimestral', 'Trimestral', '279.00', '3 meses'],
      ['Plan Estudiante', 'Mensual', '49.00', '1 mes'],
    ].map(([title, type, price, duration], i) => ({
      img: img(title!),
      title: title!,
      type: type!,
      price: q(price!),
      duration: duration!,
      status: i === 4 ? 'Unactive' : 'Active',
      dueDate: `2026-0${7 + (i % 3)}-01`,
    })),
  );
  await fill(
    db,
    tplAgents,
    people.slice(2, 9).map((name, i) => ({
      img: img(name),
      name,
      joiningDate: `202${i % 5}-0${1 + i}-10`,
      property: [14, 9, 22, 6, 11, 17, 4][i],
      location: [
        'Zona 10, Guatemala',
        'Zona 4, Mixco',
        'Antigua Guatemala',
        'Quetzaltenango',
        'San Lucas Sacatepéquez',
        'Zona 15, Guatemala',
        'Escuintla',
      ][i],
      email: `agente${i + 1}@inmuebles.gt`,
      contact: `+502 5${i}33 44${i}1`,
      status: i === 5 ? 'Unactive' : 'Active',
    })),
  );
  await fill(
    db,
    tplAgencies,
    [
      'Inmobiliaria Los Volcanes',
      'Casa Propia',
      'Bienes Raíces del Valle',
      'Hogar Seguro',
      'Urbana Inmuebles',
      'Altos Propiedades',
    ].map((name, i) => ({
      img: img(name),
      name,
      since: [2008, 2012, 1999, 2015, 2018, 2005][i],
      location: ['Guatemala', 'Mixco', 'Antigua Guatemala', 'Villa Nueva', 'Guatemala', 'Quetzaltenango'][i],
      property: [120, 64, 210, 38, 55, 87][i],
      employee: [25, 12, 40, 8, 10, 18][i],
      email: `contacto${i + 1}@agencia.gt`,
      contact: `+502 2${i}66 77${i}2`,
    })),
  );
  const agentIds = await db.select({ id: tplAgents.id }).from(tplAgents).orderBy(asc(tplAgents.id));
  const types = ['Casa', 'Apartamento', 'Villa', 'Oficina', 'Terreno'] as const;
  await fill(
    db,
    tplProperties,
    [
      [
        'Casa con jardín en Carretera a El Salvador',
        'Km 18.5, Carretera a El Salvador',
        'Santa Catarina Pinula',
        '1850000.00',
        'Sale',
      ],
      ['Apartamento amueblado zona 14', '4a. Avenida 15-20, zona 14', 'Guatemala', '6500.00', 'Rent'],
      ['Villa colonial', 'Calle del Arco 12', 'Antigua Guatemala', '3200000.00', 'Sale'],
      ['Oficina ejecutiva en Reforma', 'Avenida La Reforma 8-60, zona 9', 'Guatemala', '9800.00', 'Rent'],
      ['Terreno para desarrollo', 'Aldea El Chorro', 'San José Pinula', '950000.00', 'Sale'],
      ['Casa familiar en Xela', '7a. Calle 10-44, zona 3', 'Quetzaltenango', '4200.00', 'Rent'],
      ['Apartamento con vista al lago', 'Calle Santander', 'Panajachel', '780000.00', 'Sale'],
      ['Casa en condominio', 'Condominio Las Flores, lote 21', 'Mixco', '5200.00', 'Rent'],
      ['Oficina en centro comercial', 'Centro Comercial Miraflores, nivel 3', 'Guatemala', '12500.00', 'Rent'],
      ['Villa de descanso', 'Km 95, Carretera al Pacífico', 'Escuintla', '1450000.00', 'Sale'],
    ].map(([title, location, city, price, requirement], i) => ({
      img: img(title!),
      title: title!,
      type: types[i % types.length],
      location: location!,
      city: city!,
      bedroom: [4, 2, 5, 0, 0, 3, 2, 3, 0, 4][i],
      bathroom: [3, 2, 4, 1, 0, 2, 2, 2, 1, 3][i],
      area: [320, 95, 480, 120, 2500, 180, 110, 150, 85, 410][i],
      rating: [4.5, 4.2, 4.9, 4.0, 3.8, 4.4, 4.7, 4.1, 4.3, 4.6][i],
      price: q(price!),
      starred: i % 3 === 0,
      agentId: agentIds.length ? agentIds[i % agentIds.length].id : null,
      requirement: requirement!,
    })),
  );
  await fill(
    db,
    tplPropertyFeedback,
    [
      ['Claudia Monterroso', 'La atención del agente fue excelente y la casa estaba tal como en las fotos.'],
      ['Mario Quiñónez', 'El proceso de alquiler fue rápido; recomiendo la agencia.'],
      ['Rosa Pineda', 'Buena ubicación, aunque el parqueo es reducido.'],
      ['Héctor Villatoro', 'Nos ayudaron con todos los trámites de la compra.'],
      ['Isabel Chávez', 'El apartamento necesitaba algunas reparaciones menores.'],
      ['Oscar Juárez', 'Muy satisfechos con la visita guiada y la información recibida.'],
    ].map(([name, content], i) => ({
      img: img(name!),
      name: name!,
      content: content!,
      time: `2026-06-${String(3 + i * 4).padStart(2, '0')}`,
    })),
  );
  await fill(
    db,
    tplTransactions,
    [
      ['Pago de factura FAC-2026001', 'Credit', '875.00', 'Successful'],
      ['Compra de licencias', 'Debit', '4500.00', 'Successful'],
      ['Cobro de suscripción anual', 'Credit', '1999.00', 'Pending'],
      ['Reembolso a cliente', 'Debit', '415.25', 'Successful'],
      ['Pago de proveedor de papelería', 'Debit', '1260.00', 'Cancelled'],
      ['Venta de curso en línea', 'Credit', '450.00', 'Successful'],
      ['Comisión bancaria', 'Debit', '35.00', 'Successful'],
      ['Pago de factura FAC-2026005', 'Credit', '2150.00', 'Pending'],
      ['Servicio de hospedaje web', 'Debit', '899.99', 'Successful'],
      ['Consultoría actuarial', 'Credit', '16000.00', 'Successful'],
    ].map(([details, type, amount, status], i) => ({
      transactionId: `TRX${String(58201 + i)}`,
      date: `2026-06-${String(1 + i * 3).padStart(2, '0')}`,
      details: details!,
      type: type!,
      amount: q(amount!),
      status: status!,
    })),
  );
  const [firstUser] = await db.select({ id: users.id }).from(users).orderBy(asc(users.id)).limit(1);
  const priorities = ['High', 'Medium', 'Low'] as const;
  const ticketStatuses = ['Open', 'New', 'Pending', 'Close'] as const;
  await fill(
    db,
    tplSupportTickets,
    [
      ['No puedo cargar la planilla de junio', 'Municipalidad de Mixco'],
      ['Error al firmar un documento', 'Municipalidad de Villa Nueva'],
      ['Solicitud de nuevo usuario', 'Empresa Municipal de Agua'],
      ['El reporte por municipio no muestra datos', 'Municipalidad de Amatitlán'],
      ['Cambio de delegado regional', 'Región Metropolitana'],
      ['Consulta sobre convenio de pago', 'Municipalidad de Chinautla'],
      ['Contraseña bloqueada', 'Municipalidad de Fraijanes'],
      ['Duda sobre el cálculo de cuotas', 'Municipalidad de Palencia'],
    ].map(([ticketTitle, clientName], i) => ({
      ticketTitle: ticketTitle!,
      clientName: clientName!,
      assignedTo: i % 2 === 0 && firstUser ? firstUser.id : null,
      createDate: `2026-06-${String(2 + i * 3).padStart(2, '0')}`,
      dueDate: i % 3 === 2 ? null : `2026-07-${String(2 + i * 3).padStart(2, '0')}`,
      priority: priorities[i % priorities.length],
      status: ticketStatuses[i % ticketStatuses.length],
    })),
  );
  await fill(
    db,
    tplCalls,
    people.slice(0, 6).map((name, i) => ({
      name,
      date: `2026-06-${String(20 + i).padStart(2, '0')}`,
      time: `${String(8 + i).padStart(2, '0')}:${i % 2 ? '30' : '15'}`,
      kind: (['Entrante', 'Saliente', 'Perdida'] as const)[i % 3],
    })),
  );
  await fill(
    db,
    tplBrowserStats,
    [
      ['Chrome', 62483, 64.82],
      ['Firefox', 12350, 12.81],
      ['Edge', 9871, 10.24],
      ['Safari', 7012, 7.27],
      ['Opera', 3150, 3.27],
      ['Otros', 1529, 1.59],
    ].map(([browser, click, rate]) => ({
      img: img(String(browser)),
      browser: String(browser),
      click: Number(click),
      rate: Number(rate),
    })),
  );
  await fill(
    db,
    tplTopPages,
    [
      ['/planilla', 312, 4820],
      ['/contributors/list', 241, 3975],
      ['/firmaDoc/pendientes', 118, 2210],
      ['/administrative/statistics', 96, 1784],
      ['/contributors/reports/general', 73, 1320],
      ['/profile', 51, 998],
    ].map(([activePage, active, n]) => ({ activePage: String(activePage), active: Number(active), users: Number(n) })),
  );
  await seedChat(db);
}

/**
 * The chat's starting point: the channels "General" and "Soporte" with every active user as a member,
 * and a few welcome messages from the first administrator.
 */
export async function seedChat(db: Db): Promise<void> {
  const [{ n }] = await db.select({ n: count() }).from(chatConversations);
  if (Number(n) > 0) return;
  const members = await db.select({ id: users.id }).from(users).where(eq(users.isActive, true)).orderBy(asc(users.id));
  if (members.length === 0) return;
  const [admin] = members;
  for (const [name, messages] of [
    ['General', ['¡Bienvenidos al chat de la institución!', 'Aquí pueden compartir avisos generales con todo el personal.']],
    ['Soporte', ['Canal para dudas sobre el sistema: planillas, firmas y reportes.']],
  ] as const) {
    const [conv] = await db
      .insert(chatConversations)
      .values({ kind: 'channel', name, createdBy: admin.id })
      .returning({ id: chatConversations.id });
    await db.insert(chatMembers).values(members.map((m) => ({ conversationId: conv.id, userId: m.id })));
    for (const body of messages) await db.insert(chatMessages).values({ conversationId: conv.id, senderId: admin.id, body });
  }
}
