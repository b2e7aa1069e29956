import cluster from 'node:cluster';
import { sql } from 'drizzle-orm';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Database, DatabaseUnavailableError, openDatabase } from './db/client.ts';
import { users } from './db/schema/index.ts';
import { clearLoginFailures } from './modules/auth/service.ts';
import { systemActor, writeAudit } from './platform/audit.ts';
import { BackupError, backup, restore, serveBackups } from './platform/backup.ts';
import { createFileStore } from './platform/files.ts';
import { recoverImports } from './platform/imports/pipeline.ts';
import { jobTitle, recoverJobs } from './platform/jobs.ts';
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
  restore <archivo> [--force]    restaura una copia en DATA_DIR (carpeta nueva o vacía; servidor detenido)`;

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
      ...(process.stdout.isTTY && config.NODE_ENV !== 'production'
        ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
        : {}),
    },
  });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    if (!worker) say(`\n${signal}: cerrando el servidor y la base de datos…`);
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
  say(
    `Listo en ${listeningAt(config, port)}  (base de datos: ${database.kind === 'pglite' ? `PGlite en ${config.dataDir}` : 'PostgreSQL'})`,
  );
  if (!config.webDist) say('Aviso: la aplicación web no está compilada; ejecute npm run build (npm start lo hace solo).');
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
