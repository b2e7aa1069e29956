import { cartTotals, type TemplateSlice, templateCollectionNames, templateSliceNames, templateSlices } from '@aporta/domain';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTemplate } from '../../seed/template.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { registry } from '../collections/registry.ts';

let t: TestApp;
let admin: TestUser;
let reader: TestUser;
let nobody: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  reader = await t.createUser({ grants: [{ resource: 'plantilla', action: 'READ', scope: 'ALL' }] });
  nobody = await t.createUser();
  await seedTemplate(t.database.db);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, token: string | null = admin.token) =>
  t.request({
    method,
    url,
    token: token ?? undefined,
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }),
  });

/** A valid new record of each collection with POST in spec §7. */
const samples: Record<string, Record<string, unknown>> = {
  instructors: {
    name: 'Carmen Yol',
    designation: 'Docente',
    totalCourse: 1,
    email: 'carmen@capacitacion.gt',
    experience: 3,
    students: 10,
    rating: 4.5,
    status: 'Active',
  },
  properties: {
    title: 'Casa nueva en Mixco',
    type: 'Casa',
    location: 'Zona 1',
    city: 'Mixco',
    bedroom: 3,
    bathroom: 2,
    area: 150,
    rating: 4,
    price: '950000.00',
    requirement: 'Sale',
  },
  agents: { name: 'Ramiro Tzul', joiningDate: '2026-01-05', property: 2, location: 'Cobán', status: 'Active' },
  agencies: { name: 'Inmuebles Verapaz', since: 2020, location: 'Cobán', property: 5, employee: 3 },
  'support-tickets': {
    ticketTitle: 'No abre el reporte',
    clientName: 'Municipalidad de Sololá',
    createDate: '2026-07-01',
    priority: 'High',
    status: 'New',
  },
  products: {
    title: 'Mouse óptico',
    category: 'Equipo',
    stock: 30,
    price: '89.90',
    discount: 5,
    orders: 0,
    ratings: 4.2,
    publish: '2026-07-01',
    mrp: '99.00',
  },
  customers: { name: 'Pedro Cholotío', email: 'pedro@correo.gt', createDate: '2026-07-01', status: 'Active' },
  sellers: { name: 'Tienda Sololá', seller: 'Ana Ixcoy', stock: 10, revenue: '1500.00' },
  'shop-orders': {
    orderDate: '2026-07-01',
    product: 'Mouse óptico',
    customer: 'Pedro Cholotío',
    shop: 'Tienda Sololá',
    payMethod: 'Efectivo',
    price: '89.90',
    ratings: 4,
    deliveryStatus: 'New',
  },
  courses: {
    name: 'Introducción a la firma electrónica',
    lessons: 4,
    duration: '2 semanas',
    students: 0,
    fees: '150.00',
    rating: 0,
    level: 'Beginner',
    status: 'Open',
  },
  'course-categories': { name: 'Ética pública', color: 'red' },
};

describe('seed', () => {
  it('fills every template collection with 5 to 15 records, pictures as generated data: URIs', async () => {
    for (const name of templateCollectionNames) {
      const [{ n }] = await t.database.db.select({ n: count() }).from(registry[name].table as never);
      expect(Number(n), name).toBeGreaterThanOrEqual(5);
      expect(Number(n), name).toBeLessThanOrEqual(15);
    }
    const res = await call('GET', '/app/products');
    for (const p of res.json()) expect(p.img).toMatch(/^data:image\/svg\+xml/);
  });

  it('is idempotent', async () => {
    await seedTemplate(t.database.db);
    const [{ n }] = await t.database.db.select({ n: count() }).from(registry.leads.table as never);
    expect(Number(n)).toBe(8);
  });
});

describe('spec §7: GET /app/{collection}', () => {
  it('answers every collection the spec lists, as an array', async () => {
    for (const name of templateSliceNames) {
      const res = await call('GET', `/app/${name}`);
      expect(res.statusCode, name).toBe(200);
      expect(Array.isArray(res.json()), name).toBe(true);
    }
  });

  it('answers the browser and top-page statistics the dashboard stores', async () => {
    const browsers = (await call('GET', '/app/browser')).json();
    expect(browsers[0]).toMatchObject({ browser: 'Chrome', click: 62483, rate: 64.82 });
    const pages = (await call('GET', '/app/toppage')).json();
    expect(pages[0]).toMatchObject({ activePage: '/planilla', users: 4820 });
  });

  it('filters sale and rent properties', async () => {
    const sale = (await call('GET', '/app/saleproperty')).json();
    const rent = (await call('GET', '/app/rentproperty')).json();
    expect(sale.length).toBeGreaterThan(0);
    expect(rent.length).toBeGreaterThan(0);
    expect(sale.every((p: { requirement: string }) => p.requirement === 'Sale')).toBe(true);
    expect(rent.every((p: { requirement: string }) => p.requirement === 'Rent')).toBe(true);
  });

  it('answers money as exact decimal text', async () => {
    const deals = (await call('GET', '/app/deal')).json();
    expect(deals.map((d: { price: string }) => d.price)).toContain('27800.50');
  });
});

describe('spec §7: POST, PUT, DELETE /app/{collection}', () => {
  const writable = templateSliceNames.filter((n) => (templateSlices[n].methods as readonly string[]).includes('POST'));

  it('offers POST exactly where the spec says (and category, which also has GET)', () => {
    expect(writable.sort()).toEqual(
      [
        'instructorlist',
        'instructorGrid',
        'listingGrid',
        'agent',
        'agencies',
        'ticketList',
        'productList',
        'customerList',
        'sellerOverview',
        'seller',
        'orderList',
        'courseList',
        'courseGrid',
        'category',
      ].sort(),
    );
  });

  it('adds, lists first, replaces by id and deletes, on every collection that has them', async () => {
    const categories = (await call('GET', '/app/category')).json();
    samples.courses.categoryId = categories[0].id;
    for (const name of writable) {
      const slice = templateSlices[name] as TemplateSlice & { collection: string };
      const body = { ...samples[slice.collection] };
      if ('name' in body && slice.collection === 'course-categories') body.name = `${body.name} ${name}`;
      const added = await call('POST', `/app/${name}`, body);
      expect(added.statusCode, `${name}: ${added.body}`).toBe(201);
      const record = added.json();
      expect(record.id).toBeGreaterThan(0);
      if (name === 'category') continue;
      // The list answers it first.
      const list = (await call('GET', `/app/${name}`)).json();
      expect(list[0].id, name).toBe(record.id);
      // PUT replaces the record with the same id.
      const firstText = Object.entries(body).find(
        ([, v]) =>
          typeof v === 'string' &&
          !/^\d/.test(v as string) &&
          !['Active', 'Sale', 'Casa', 'New', 'High', 'Efectivo', 'Open', 'Beginner'].includes(v as string),
      )!;
      const replaced = await call('PUT', `/app/${name}`, { ...body, id: record.id, [firstText[0]]: `${firstText[1]} (editado)` });
      expect(replaced.statusCode, `${name}: ${replaced.body}`).toBe(200);
      expect(replaced.json()[firstText[0]]).toBe(`${firstText[1]} (editado)`);
      expect(replaced.json().id).toBe(record.id);
      // DELETE takes the ids in the body and echoes it.
      const payload = slice.deleteBy === 'id' ? record.id : [record.id];
      const deleted = await call('DELETE', `/app/${name}`, payload);
      expect(deleted.statusCode, `${name}: ${deleted.body}`).toBe(200);
      expect(deleted.json()).toEqual(payload);
      const after = (await call('GET', `/app/${name}`)).json();
      expect(
        after.some((r: { id: number }) => r.id === record.id),
        name,
      ).toBe(false);
    }
  });

  it('deletes several records at once, all or none', async () => {
    const a = (await call('POST', '/app/orderList', samples['shop-orders'])).json();
    const b = (await call('POST', '/app/orderList', samples['shop-orders'])).json();
    const refused = await call('DELETE', '/app/orderList', [a.id, 999_999]);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.message).toContain('999999');
    expect((await call('GET', '/app/orderList')).json().filter((r: { id: number }) => r.id === a.id)).toHaveLength(1);
    const res = await call('DELETE', '/app/orderList', [a.id, b.id]);
    expect(res.statusCode).toBe(200);
    const left = (await call('GET', '/app/orderList')).json();
    expect(left.some((r: { id: number }) => r.id === a.id || r.id === b.id)).toBe(false);
  });

  it('invoiceList has GET and DELETE only', async () => {
    const invoices = (await call('GET', '/app/invoiceList')).json();
    expect((await call('POST', '/app/invoiceList', { invoiceNo: 'X' })).statusCode).toBe(405);
    expect((await call('PUT', '/app/invoiceList', { id: invoices[0].id })).statusCode).toBe(405);
    const res = await call('DELETE', '/app/invoiceList', [invoices[0].id]);
    expect(res.statusCode).toBe(200);
  });

  it('refuses a delete the references forbid, naming them', async () => {
    const categories = (await call('GET', '/app/category')).json();
    const used = categories.find((c: { name: string }) => c.name === 'Tecnología');
    // Categories have no DELETE in the spec; a course's category is guarded by the engine instead.
    expect((await call('DELETE', '/app/category', [used.id])).statusCode).toBe(405);
    const agents = (await call('GET', '/app/agent')).json();
    const res = await call('DELETE', '/app/agent', [agents.at(-1).id]);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/No se puede eliminar/);
  });
});

describe('spec §8: error answers', () => {
  it("answers 'No Data Found' (401) for a collection that does not exist, whatever the method", async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const) {
      const res = await call(method, '/app/unicornios', method === 'GET' ? undefined : [1]);
      expect(res.statusCode, method).toBe(401);
      expect(res.json().error).toEqual({ code: 'NO_DATA_FOUND', message: 'No Data Found', key: 'errors.NO_DATA_FOUND' });
    }
    expect((await call('GET', '/app/a/b')).statusCode).toBe(401);
  });

  it("answers 'Unauthorised' (401) for a DELETE without data", async () => {
    for (const payload of [undefined, '']) {
      const res =
        payload === undefined
          ? await call('DELETE', '/app/productList')
          : await t.request({
              method: 'DELETE',
              url: '/app/productList',
              token: admin.token,
              payload,
              headers: { 'content-type': 'application/json' },
            });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toEqual({ code: 'UNAUTHORISED', message: 'Unauthorised', key: 'errors.UNAUTHORISED' });
    }
    expect((await call('DELETE', '/app/seller', null)).json().error.message).toBe('Unauthorised');
  });

  it('requires the bearer token and the permission', async () => {
    expect((await call('GET', '/app/lead', undefined, null)).statusCode).toBe(401);
    expect((await call('GET', '/app/lead', undefined, nobody.token)).statusCode).toBe(403);
    expect((await call('GET', '/app/lead', undefined, reader.token)).statusCode).toBe(200);
    expect((await call('POST', '/app/productList', samples.products, reader.token)).statusCode).toBe(403);
    expect((await call('DELETE', '/app/productList', [1], reader.token)).statusCode).toBe(403);
  });

  it('refuses a body of the wrong shape in Spanish, naming the field', async () => {
    const extra = await call('POST', '/app/productList', { ...samples.products, color: 'rojo' });
    expect(extra.statusCode).toBe(400);
    const wrong = await call('POST', '/app/productList', { ...samples.products, price: 'mucho', stock: -1 });
    expect(wrong.statusCode).toBe(400);
    const text = JSON.stringify(wrong.json());
    expect(text).toContain('Existencias: no puede ser negativo');
    expect(text).toMatch(/monto/i);
    const badStatus = await call('POST', '/app/customerList', { ...samples.customers, status: 'Deleted' });
    expect(badStatus.statusCode).toBe(400);
    expect(JSON.stringify(badStatus.json())).toContain('Active, Unactive, Block');
    for (const body of [{ ids: [1] }, ['1'], [0], [-3], [], 'x']) {
      const res = await call('DELETE', '/app/productList', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message).toMatch(/identificador/i);
    }
    expect((await call('DELETE', '/app/seller', [1])).statusCode).toBe(400);
    const notJson = await t.request({
      method: 'DELETE',
      url: '/app/productList',
      token: admin.token,
      payload: '[1,',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('answers 404 naming an id that does not exist', async () => {
    const put = await call('PUT', '/app/productList', { ...samples.products, id: 987_654 });
    expect(put.statusCode).toBe(404);
    expect(put.json().error.message).toContain('987654');
    const del = await call('DELETE', '/app/customerList', 987_654);
    expect(del.statusCode).toBe(404);
  });

  it('answers after the simulated 500 ms only when TEMPLATE_DELAY is on', async () => {
    const slow = await createTestApp({ TEMPLATE_DELAY: 'true' });
    try {
      const user = await slow.createUser({ system: true });
      const started = process.hrtime.bigint();
      const res = await slow.request({ method: 'GET', url: '/app/lead', token: user.token });
      const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
      expect(res.statusCode).toBe(200);
      expect(ms).toBeGreaterThanOrEqual(500);
    } finally {
      await slow.close();
    }
    expect(t.config.TEMPLATE_DELAY).toBe(false);
  });
});

describe('cart', () => {
  it('keeps each user their own cart with exact totals; quantity never below 1', async () => {
    const products = (await call('GET', '/app/products')).json();
    const [p1, p2] = products;
    let res = await call('PUT', `/api/plantilla/cart/${p1.id}`, { qty: 2 });
    expect(res.statusCode).toBe(200);
    res = await call('PUT', `/api/plantilla/cart/${p2.id}`, { qty: 1 });
    const cart = res.json();
    expect(cart.items).toHaveLength(2);
    const expected = cartTotals([
      { price: BigInt(p1.price.replace('.', '')), qty: 2 },
      { price: BigInt(p2.price.replace('.', '')), qty: 1 },
    ]);
    expect(cart.total).toBe(`${expected.total / 100n}.${String(expected.total % 100n).padStart(2, '0')}`);
    expect(cart.shipping).toBe('65.00');
    // Another user's cart is empty.
    expect((await call('GET', '/api/plantilla/cart', undefined, reader.token)).json().items).toEqual([]);
    for (const qty of [0, -1, 1.5, '2']) {
      const bad = await call('PUT', `/api/plantilla/cart/${p1.id}`, { qty });
      expect(bad.statusCode, String(qty)).toBe(400);
    }
    expect(JSON.stringify((await call('PUT', `/api/plantilla/cart/${p1.id}`, { qty: 0 })).json())).toContain(
      'no puede ser menor que 1',
    );
    expect((await call('PUT', '/api/plantilla/cart/999999', { qty: 1 })).statusCode).toBe(404);
    res = await call('DELETE', `/api/plantilla/cart/${p2.id}`);
    expect(res.json().items).toHaveLength(1);
    expect((await call('DELETE', `/api/plantilla/cart/${p2.id}`)).statusCode).toBe(404);
  });

  it('computes the spec constants exactly: 15 % discount, 12.5 % tax, 65.00 shipping', () => {
    const t1 = cartTotals([{ price: 123_457n, qty: 3 }]);
    expect(t1.subtotal).toBe(370_371n);
    expect(t1.discount).toBe(55_556n); // 3 703.71 × 15 % = 555.5565 → 555.56
    expect(t1.tax).toBe(46_296n); // 3 703.71 × 12.5 % = 462.96375 → 462.96
    expect(t1.total).toBe(370_371n - 55_556n + 46_296n + 6_500n);
    expect(cartTotals([]).total).toBe(0n);
  });
});

describe('dashboards', () => {
  it('computes the figures from the tables', async () => {
    const res = await call('GET', '/api/plantilla/summary');
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s.crm.leads).toBe(8);
    expect(s.realEstate.forSale + s.realEstate.forRent).toBe(s.realEstate.properties);
    expect(s.earnings.balance).toMatch(/^-?\d+\.\d{2}$/);
  });
});
