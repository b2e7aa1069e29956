#!/usr/bin/env node
// Sube la planilla de un mes con un token de integración de Aporta, espera su validación, la confirma y la
// envía a revisión. Node.js 20 o posterior, sin dependencias. Guía: docs/integraciones.md.
//
//   APORTA_URL=https://aporta.ejemplo.gt APORTA_TOKEN=apt_… \
//     node subir-planilla.mjs --entidad 108 --periodo 2026-03 planilla-2026-03.csv
//
// Sale con 0 cuando la planilla quedó ENVIADA; con 1 y el motivo en otro caso (filas con error, rechazo…).

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    entidad: { type: 'string' },
    periodo: { type: 'string' },
    tipo: { type: 'string', default: 'ORDINARIA' },
    'sin-enviar': { type: 'boolean', default: false },
  },
});
const base = (process.env.APORTA_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const token = process.env.APORTA_TOKEN;
const file = positionals[0];
if (!token || !values.entidad || !values.periodo || !file) {
  console.error(
    'Uso: APORTA_URL=… APORTA_TOKEN=apt_… node subir-planilla.mjs --entidad <id> --periodo AAAA-MM <archivo.csv|xlsx>',
  );
  process.exit(2);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Una llamada a la API con el token; respeta 429 y 503 (Retry-After) y devuelve el JSON o lanza el error de Aporta. */
async function api(method, path, body) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
    });
    if ((res.status === 429 || res.status === 503) && attempt < 10) {
      const wait = Number(res.headers.get('retry-after') ?? 5);
      console.info(`  … el servidor pide esperar ${wait} s (${res.status})`);
      await sleep(wait * 1000);
      continue;
    }
    const json = res.status === 204 ? null : await res.json();
    if (!res.ok) {
      const e = json?.error ?? {};
      const details = (e.details ?? []).map((d) => `\n    - ${d.path ? `${d.path}: ` : ''}${d.message}`).join('');
      throw new Error(`${method} ${path} → ${res.status} ${e.code ?? ''}: ${e.message ?? res.statusText}${details}`);
    }
    return json;
  }
}

/** Consulta `path` cada 2 s hasta que `listo` se cumpla (máximo 15 minutos). */
async function esperar(path, listo) {
  const hasta = Date.now() + 15 * 60_000;
  for (;;) {
    const r = await api('GET', path);
    if (listo(r)) return r;
    if (Date.now() > hasta) throw new Error(`${path}: sigue en proceso después de 15 minutos`);
    await sleep(2000);
  }
}

// 1. Subir el archivo (multipart, campo "file").
const form = new FormData();
form.append('file', new Blob([await readFile(file)]), basename(file));
const query = new URLSearchParams({ entityId: values.entidad, period: values.periodo, type: values.tipo });
let carga = await api('POST', `/api/planilla-uploads?${query}`, form);
console.info(`Carga ${carga.id} recibida (${carga.fileName}); validando…`);

// 2. Esperar la validación (VALIDANDO → VALIDADO).
carga = await esperar(`/api/planilla-uploads/${carga.id}`, (c) => c.status !== 'VALIDANDO');
if (carga.status !== 'VALIDADO') throw new Error(`La carga terminó en ${carga.status}: ${carga.message ?? ''}`);
console.info(`Validada: ${carga.validRows} filas válidas, ${carga.errorRows} con error.`);
if (carga.errorRows > 0) {
  const errores = await api('GET', `/api/planilla-uploads/${carga.id}/rows?kind=error&pageSize=50`);
  for (const f of errores.items) {
    console.info(`  fila ${f.rowNumber} (${f.cui || 'sin CUI'}): ${f.errors.map((e) => e.message).join('; ')}`);
  }
  console.info('Corrija el archivo y vuelva a subirlo; la carga se descarta.');
  await api('POST', `/api/planilla-uploads/${carga.id}/discard`);
  process.exit(1);
}

// 3. Confirmar: un proceso escribe la planilla en borrador (CONFIRMANDO → CONFIRMADO, con planillaId).
await api('POST', `/api/planilla-uploads/${carga.id}/commit`);
carga = await esperar(`/api/planilla-uploads/${carga.id}`, (c) => c.status !== 'CONFIRMANDO');
if (carga.status !== 'CONFIRMADO') throw new Error(`La confirmación terminó en ${carga.status}: ${carga.message ?? ''}`);
console.info(`Planilla ${carga.planillaId} escrita en borrador.`);
if (values['sin-enviar']) process.exit(0);

// 4. Enviar a revisión (BORRADOR → ENVIANDO → ENVIADA, o de vuelta a BORRADOR con el motivo).
await api('POST', `/api/planillas/${carga.planillaId}/transitions`, { to: 'ENVIANDO' });
const planilla = await esperar(`/api/planillas/${carga.planillaId}`, (p) => p.state !== 'ENVIANDO');
if (planilla.state !== 'ENVIADA') {
  console.info(`No se envió (${planilla.state}): ${planilla.submitMessage ?? ''}`);
  process.exit(1);
}
console.info(
  `Planilla ${planilla.id} de ${planilla.entityName} (${planilla.period}) ENVIADA: ${planilla.lineCount} empleados, cuota laboral Q${planilla.totalEmployee}.`,
);
