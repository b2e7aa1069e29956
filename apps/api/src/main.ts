import cluster from 'node:cluster';
import { sql } from 'drizzle-orm';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Database, DatabaseUnavailableError, openDatabase, rowsOf } from './db/client.ts';
import { users } from './db/schema/index.ts';
import { clearLoginFailures } from './modules/auth/service.ts';
import { systemActor, writeAudit } from './platform/audit.ts';
import { type ChainBreak, sealAuditChain, verifyAuditChain } from './platform/audit-chain.ts';
import { BackupError, backup, restore, serveBackups } from './platform/backup.ts';
import { createFileStore } from './platform/files.ts';
import { recoverImports } from './platform/imports/pipeline.ts';
import { jobTitle, recoverJobs } from './platform/jobs.ts';
import { configureMailSiteFrom } from './platform/mail-templates.ts';
import { metricsEnabled, serveClusterMetrics, startMetricsServer } from './platform/metrics.ts';
import { generatePassword, hashPassword } from './platform/passwords.ts';
import { seedAccountsDemo } from './seed/accounts.ts';
import { seedCatalogDemo } from './seed/catalogs.ts';
import { seedContributorDemo } from './seed/contributors.ts';
import { ensureAdmin, seedReference } from './seed/index.ts';
import { seedPaymentDemo } from './seed/payments.ts';
import { seedPensionDemo } from './seed/pensions.ts';
import { seedPlanillaDemo } from './seed/planillas.ts';
import { seedShellDemo } from './seed/shell.ts';
import { seedTemplate } from './seed/template.ts';
import { seedWorkflowDemo } from './seed/workflow.ts';

const usage = `Uso: aporta <comando>
  serve                          aplica migraciones, siembra datos de referencia y sirve la aplicación
  migrate                        aplica las migraciones pendientes
  seed                           siembra los datos de referencia (y de demostración si DEMO_DATA)
  reset-password <correo>        genera una contraseña nueva para el usuario y la muestra una vez
  backup <archivo>               copia de seguridad de la base embebida (también con el servidor en marcha)
  restore <archivo> [--force]    restaura una copia en DATA_DIR (carpeta nueva o vacía; servidor detenido)
  verify-audit [--ancla N:hash]  sella lo pendiente y verifica la cadena de hashes de la bitácora; nombra el primer
                                 registro modificado, borrado o insertado por fuera (código de salida 3); con
                                 --ancla, comprueba además que la posición N conserve el hash anotado antes`;

const say = (line: string) => process.stdout.write(`${line}\n`);

/** 12,3: one decimal with the Spanish comma. */
const decimal = (n: number) => n.toFixed(1).replace('.', ',');

/** Prints what is being done, does it, then how long it took: a first start is never silent. */
async function step<T>(label: string, work: () => Promise<T>): Promise<T> {
  say(`${label}…`);
  const started = Date.now();
  const result = await work();
  say(`  hecho en ${decimal((Date.now() - started) / 1000)} s`);
  return result;
}

const open = (config: Config) =>
  openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize: config.DB_POOL_SIZE,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
  });

async function prepare(config: Config): Promise<Database> {
  const database = await step(
    config.DATABASE_URL ? 'Conectando con PostgreSQL' : `Abriendo la base de datos embebida en ${config.dataDir}`,
    () => open(config),
  );
  await step('Aplicando migraciones', () => database.migrate());
  return database;
}

async function seed(config: Config, database: Database) {
  // Demo data queues mail (payments, workflow): its links must name this installation, as the server's will.
  configureMailSiteFrom(config);
  await step('Sembrando datos de referencia', () => seedReference(database.db));
  const admin = await ensureAdmin(database.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD, () => generatePassword());
  // After ensureAdmin, which creates the first administrator only while there are no users at all.
  if (config.demoData) {
    await step('Sembrando datos de demostración (50 000 personas RENAP)', async () => {
      await seedAccountsDemo(database.db);
      await seedCatalogDemo(database.db);
      await seedContributorDemo(database.db);
      await seedPlanillaDemo(database.db);
      await seedPaymentDemo(database.db);
      await seedPensionDemo(database.db);
      await seedWorkflowDemo(database.db, createFileStore(config), config.APP_TITLE);
    });
  }
  if (admin?.password) {
    say('');
    say('  Administrador creado. Anote esta contraseña: no se volverá a mostrar.');
    say(`    correo:     ${admin.email}`);
    say(`    contraseña: ${admin.password}`);
    say('  (Si la pierde: npm run admin -- reset-password <correo>)');
    say('');
  } else if (admin) {
    say(`Administrador creado: ${admin.email} (contraseña tomada de ADMIN_PASSWORD).`);
  }
  if (config.demoData) {
    await seedShellDemo(database.db);
    await step('Sembrando los datos de la plantilla (CRM, comercio, aprendizaje…)', () => seedTemplate(database.db));
  }
}

/**
 * Start-up work done once, by the only process or by the primary of several (before any serves):
 * migrations, reference and demo data, and the work an earlier stop left half done.
 */
async function prepareToServe(config: Config): Promise<Database> {
  const database = await prepare(config);
  await seed(config, database);
  // Imports a stopped process left VALIDANDO: those still reading their file fail (the file is gone);
  // the others resume when the job worker takes their validation job back.
  const interrupted = await recoverImports(database.db);
  if (interrupted.length) say(`Cargas interrumpidas marcadas como fallidas: ${interrupted.length}.`);
  // Records whose job ended (or vanished) without finishing them — planillas left ENVIANDO, bank rows
  // matched without payment: each job kind's `recover` leaves them visible, with the reason, to act on.
  const recovered = await recoverJobs(database.db);
  for (const [kind, n] of Object.entries(recovered))
    say(`${jobTitle(kind)}: ${n} registro(s) que un proceso dejó sin terminar, recuperados.`);
  return database;
}

const listeningAt = (config: Config, port: number) => {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return `http://${host}:${port}`;
};

/**
 * `serve` with API_PROCESSES > 1 (PostgreSQL only): this process prepares once, then starts that many
 * server processes sharing the port (node:cluster), replaces one that dies, and stops them all on
 * SIGINT/SIGTERM. Everything they share (sessions, lock-out, rate limits, jobs, the session cache's
 * invalidation) is in the database already: they are the "several API processes" of ARCHITECTURE.md.
 */
async function servePrimary(config: Config) {
  const database = await prepareToServe(config);
  await database.close();
  const count = config.API_PROCESSES;
  // Metrics of every server process, summed here (platform/metrics.ts): on the metrics port, and for a process
  // asked on the main port with the token.
  // Its port opened before any process starts, so a port in use stops the start at once.
  const scrapeCluster = metricsEnabled(config) ? serveClusterMetrics() : null;
  const metricsServer = scrapeCluster && config.METRICS_PORT != null ? await startMetrics(config, scrapeCluster) : null;
  say(`Iniciando ${count} procesos del servidor HTTP…`);
  const listening = new Set<number>();
  let closing = false;
  let port = config.PORT;
  const stopAll = () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
  };
  const ready = new Promise<void>((resolve, reject) => {
    cluster.on('message', (worker, message: { type?: string; port?: number }) => {
      if (message?.type !== 'listening') return;
      port = message.port ?? port;
      listening.add(worker.id);
      if (listening.size === count) resolve();
    });
    cluster.on('exit', (worker, code, signal) => {
      if (closing) {
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
        return;
      }
      if (!listening.has(worker.id)) {
        // It never served: the cause (port in use, database gone…) was printed by the process itself.
        closing = true;
        stopAll();
        reject(new StartupError('Un proceso del servidor no pudo iniciar; se detienen todos.'));
        return;
      }
      listening.delete(worker.id);
      say(`Un proceso del servidor terminó (${signal ?? `código ${code}`}); se inicia otro.`);
      setTimeout(() => cluster.fork(), 1000);
    });
  });
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    say(`\n${signal}: cerrando los procesos del servidor…`);
    void metricsServer?.close();
    stopAll();
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    setTimeout(() => process.exit(0), 20_000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  for (let i = 0; i < count; i++) cluster.fork();
  await ready;
  say(`Listo en ${listeningAt(config, port)}  (base de datos: PostgreSQL, ${count} procesos)`);
}

async function serve(config: Config) {
  if (config.API_PROCESSES > 1 && cluster.isPrimary) return servePrimary(config);
  // A server process of several: the primary prepared everything; this one only serves.
  const worker = cluster.isWorker;
  const database = worker ? await open(config) : await prepareToServe(config);
  const stopBackups = database.kind === 'pglite' ? serveBackups(config.dataDir, database) : () => {};
  if (!worker) say('Iniciando el servidor HTTP…');
  const app = await buildApp({
    config,
    database,
    // Readable lines in a terminal, JSON lines for log collectors; tokens never logged.
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization'],
      // Nor the token of a password-reset link (/restablecer-contrasena?token=…) in a logged address.
      serializers: {
        req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
          method: req.method,
          url: req.url.replace(/([?&]token=)[^&#]*/gi, '$1[oculto]'),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
      ...(process.stdout.isTTY && config.NODE_ENV !== 'production'
        ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
        : {}),
    },
  });
  let closing = false;
  let metricsServer: { close: () => Promise<void> } | null = null;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    if (!worker) say(`\n${signal}: cerrando el servidor y la base de datos…`);
    await metricsServer?.close();
    // Close HTTP first so no request writes while the database shuts down, then flush PGlite.
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    stopBackups();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    await database.close().catch(() => {});
    stopBackups();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new StartupError(`El puerto ${config.PORT} ya está en uso. Use otro con PORT=<número>.`);
    if (code === 'EACCES') throw new StartupError(`Sin permiso para usar el puerto ${config.PORT}. Use otro con PORT=<número>.`);
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  if (worker) {
    process.send?.({ type: 'listening', port });
    return;
  }
  // The metrics port of the only process (with several, the primary serves it).
  if (config.METRICS_PORT != null) {
    try {
      metricsServer = await startMetrics(config);
    } catch (err) {
      await app.close().catch(() => {});
      await database.close().catch(() => {});
      stopBackups();
      throw err;
    }
  }
  say(
    `Listo en ${listeningAt(config, port)}  (base de datos: ${database.kind === 'pglite' ? `PGlite en ${config.dataDir}` : 'PostgreSQL'})`,
  );
  if (!config.webDist) say('Aviso: la aplicación web no está compilada; ejecute npm run build (npm start lo hace solo).');
}

/** `/metrics` on METRICS_PORT (platform/metrics.ts); a port in use stops the start with a message naming it. */
async function startMetrics(config: Config, scrape?: () => Promise<string>) {
  try {
    const server = await startMetricsServer({
      host: config.METRICS_HOST,
      port: config.METRICS_PORT ?? 0,
      token: config.METRICS_TOKEN,
      scrape,
    });
    say(`Métricas en http://${config.METRICS_HOST}:${server.port}/metrics`);
    return server;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
      throw new StartupError(`No se pudo abrir el puerto de métricas ${config.METRICS_HOST}:${config.METRICS_PORT} (${code}).`);
    throw err;
  }
}

async function resetPassword(config: Config, email: string | undefined) {
  if (!email) throw new StartupError('Indique el correo: npm run admin -- reset-password <correo>');
  const database = await prepare(config);
  try {
    const password = generatePassword();
    const passwordHash = await hashPassword(password);
    const updated = await database.db.transaction(async (tx) => {
      const [u] = await tx
        .update(users)
        .set({ passwordHash, mustChangePassword: true, updatedAt: new Date() })
        .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
        .returning({ id: users.id });
      if (u) await writeAudit(tx, systemActor, { action: 'RESET_PASSWORD', entityType: 'user', entityId: u.id });
      return u;
    });
    if (!updated) throw new StartupError(`No existe un usuario con el correo ${email}.`);
    // A reset also lifts any sign-in lock on the address, as the administrator's reset does.
    await clearLoginFailures(database.db, email);
    say(`Contraseña nueva para ${email}: ${password}`);
    say('Deberá cambiarla al iniciar sesión.');
  } finally {
    await database.close();
  }
}

class StartupError extends Error {}

/** `backup <archivo>`: PGlite through platform/backup.ts; PostgreSQL with its own pg_dump. */
async function backupCommand(config: Config, file: string | undefined) {
  if (!file) throw new StartupError('Indique el archivo: npm run admin -- backup <archivo>');
  if (config.DATABASE_URL) {
    say('La base es PostgreSQL (DATABASE_URL): haga la copia con pg_dump, por ejemplo:');
    say(`  pg_dump --format=custom --file=${file} "$DATABASE_URL"`);
    say('y restáurela con: pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" <archivo>');
    process.exitCode = 2;
    return;
  }
  const started = Date.now();
  const r = await backup(config.dataDir, file);
  const by = r.by === 'server' ? 'tomada por el servidor en marcha' : 'tomada con el servidor detenido';
  say(
    `Copia de seguridad escrita en ${file} (${decimal(r.bytes / 1048576)} MB, ${by}, ${decimal((Date.now() - started) / 1000)} s).`,
  );
}

/** `restore <archivo> [--force]` into DATA_DIR. */
async function restoreCommand(config: Config, args: string[]) {
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) throw new StartupError('Indique el archivo: npm run admin -- restore <archivo> [--force]');
  if (config.DATABASE_URL)
    throw new StartupError(
      'La base es PostgreSQL (DATABASE_URL): restaure con pg_restore (véase README, «Copias de seguridad»).',
    );
  await restore(config.dataDir, file, { force: args.includes('--force') });
  say(`Copia restaurada en ${config.dataDir}. Inicie el servidor con DATA_DIR=${config.dataDir} npm start.`);
}

/** The first break of the audit chain, for the operator. */
function chainBreakText(b: ChainBreak): string {
  const after = b.afterId == null ? 'al inicio de la cadena' : `después del registro ${b.afterId}`;
  switch (b.kind) {
    case 'CHANGED':
      return `el registro ${b.id} (posición ${b.seq} de la cadena) fue modificado: su contenido o su hash no coinciden.`;
    case 'DELETED':
      return b.missing === 1 && b.id != null
        ? `el registro ${b.id} (posición ${b.seq}) fue borrado, ${after}.`
        : `faltan ${b.missing} registros de la cadena desde la posición ${b.seq}, ${after}${b.id == null ? '' : ` (el último, el registro ${b.id})`}: fueron borrados.`;
    case 'INSERTED':
      return `el registro ${b.id} fue insertado por fuera de la aplicación (no pertenece a la cadena sellada).`;
    case 'HEAD':
      return 'la cabeza de la cadena (audit_chain_head) fue modificada o borrada.';
  }
}

/** `verify-audit [--ancla N:hash]`: seals what waits, walks the chain; exit code 3 on the first break. */
async function verifyAuditCommand(config: Config, args: string[]) {
  const anchorArg = args.find((a) => !a.startsWith('--'));
  const anchor = args.includes('--ancla') ? /^(\d+):([0-9a-f]{64})$/.exec(anchorArg ?? '') : null;
  if (args.includes('--ancla') && !anchor)
    throw new StartupError('Ancla no válida: use --ancla <posición>:<hash de 64 caracteres hexadecimales>.');
  const database = await prepare(config);
  try {
    const sealed = await step('Sellando los registros pendientes de la bitácora', () =>
      sealAuditChain(database.db, { untilNow: true, timeoutMs: 60_000 }),
    );
    if (!sealed.complete) say('  Aviso: una transacción abierta retiene registros sin sellar; se verifica lo sellado.');
    const v = await step('Verificando la cadena de hashes', () => verifyAuditChain(database.db));
    if (v.broken) {
      say(`Cadena ROTA: ${chainBreakText(v.broken)}`);
      say(
        v.intactThroughId == null
          ? 'Ningún registro anterior íntegro.'
          : `Íntegra hasta el registro ${v.intactThroughId} (${v.sealedRows} registros).`,
      );
      process.exitCode = 3;
      return;
    }
    say(
      v.intactThroughId == null
        ? 'Cadena íntegra: aún no hay registros sellados.'
        : `Cadena íntegra hasta el registro ${v.intactThroughId} (${v.sealedRows} registros sellados).`,
    );
    say(`Ancla para anotar fuera de la base: --ancla ${v.sealedRows}:${v.headHash}`);
    if (v.pendingRows > 0) say(`${v.pendingRows} registro(s) escritos después aún sin sellar.`);
    if (anchor) {
      const [row] = rowsOf<{ hash: string | null }>(
        await database.db.execute(sql`select hash from audit_log where seq = ${Number(anchor[1])} and hash is not null limit 1`),
      );
      if (row?.hash !== anchor[2]) {
        say(`Cadena REESCRITA: la posición ${anchor[1]} ya no tiene el hash anotado (${row?.hash ?? 'no existe'}).`);
        process.exitCode = 3;
        return;
      }
      say(`El ancla coincide: la posición ${anchor[1]} conserva su hash.`);
    }
  } finally {
    await database.close();
  }
}

async function main() {
  const [command = 'serve', ...args] = process.argv.slice(2);
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serve(config);
    case 'migrate': {
      const database = await prepare(config);
      await database.close();
      return say('Migraciones aplicadas.');
    }
    case 'seed': {
      const database = await prepare(config);
      await seed(config, database);
      await database.close();
      return say('Datos de referencia sembrados.');
    }
    case 'reset-password':
      return resetPassword(config, args[0]);
    case 'backup':
      return backupCommand(config, args[0]);
    case 'restore':
      return restoreCommand(config, args);
    case 'verify-audit':
      return verifyAuditCommand(config, args);
    default:
      say(usage);
      process.exitCode = command === 'help' || command === '--help' ? 0 : 2;
  }
}

main().catch((err) => {
  // One line for the mistakes a user can fix; the stack only for the unexpected.
  if (
    err instanceof ConfigError ||
    err instanceof DatabaseUnavailableError ||
    err instanceof StartupError ||
    err instanceof BackupError
  ) {
    process.stderr.write(`Error: ${err.message}\n`);
  } else {
    process.stderr.write(`Error inesperado: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
