import { sql } from 'drizzle-orm';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Database, DatabaseUnavailableError, openDatabase } from './db/client.ts';
import { users } from './db/schema/index.ts';
import { seedAccountsDemo } from './db/seed/accounts.ts';
import { seedCatalogDemo } from './db/seed/catalogs.ts';
import { seedContributorDemo } from './db/seed/contributors.ts';
import { ensureAdmin, seedReference } from './db/seed/index.ts';
import { seedShellDemo } from './db/seed/shell.ts';
import { recoverInterruptedImports } from './modules/contributor-imports/service.ts';
import { systemActor, writeAudit } from './platform/audit.ts';
import { generatePassword, hashPassword } from './platform/passwords.ts';

const usage = `Uso: aporta <comando>
  serve                          aplica migraciones, siembra datos de referencia y sirve la aplicación
  migrate                        aplica las migraciones pendientes
  seed                           siembra los datos de referencia (y de demostración si DEMO_DATA)
  reset-password <correo>        genera una contraseña nueva para el usuario y la muestra una vez`;

const say = (line: string) => process.stdout.write(`${line}\n`);

async function prepare(config: Config): Promise<Database> {
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
  await database.migrate();
  return database;
}

async function seed(config: Config, database: Database) {
  await seedReference(database.db);
  const admin = await ensureAdmin(database.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD, () => generatePassword());
  // After ensureAdmin, which creates the first administrator only while there are no users at all.
  if (config.demoData) {
    await seedAccountsDemo(database.db);
    await seedCatalogDemo(database.db);
    await seedContributorDemo(database.db);
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
  if (config.demoData) await seedShellDemo(database.db);
}

async function serve(config: Config) {
  const database = await prepare(config);
  await seed(config, database);
  // Uploads a killed process left VALIDANDO are marked failed, so their uploaders can discard them.
  const interrupted = await recoverInterruptedImports(database.db);
  if (interrupted.length) say(`Cargas masivas interrumpidas marcadas como fallidas: ${interrupted.length}.`);
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
    say(`\n${signal}: cerrando el servidor y la base de datos…`);
    // Close HTTP first so no request writes while the database shuts down, then flush PGlite.
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    await database.close().catch(() => {});
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new StartupError(`El puerto ${config.PORT} ya está en uso. Use otro con PORT=<número>.`);
    if (code === 'EACCES') throw new StartupError(`Sin permiso para usar el puerto ${config.PORT}. Use otro con PORT=<número>.`);
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  say(
    `Aporta lista en http://${host}:${port}  (base de datos: ${database.kind === 'pglite' ? `PGlite en ${config.dataDir}` : 'PostgreSQL'})`,
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
        .set({ passwordHash, mustChangePassword: true, failedLoginCount: 0, lockedUntil: null, updatedAt: new Date() })
        .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
        .returning({ id: users.id });
      if (u) await writeAudit(tx, systemActor, { action: 'RESET_PASSWORD', entityType: 'user', entityId: u.id });
      return u;
    });
    if (!updated) throw new StartupError(`No existe un usuario con el correo ${email}.`);
    say(`Contraseña nueva para ${email}: ${password}`);
    say('Deberá cambiarla al iniciar sesión.');
  } finally {
    await database.close();
  }
}

class StartupError extends Error {}

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
    default:
      say(usage);
      process.exitCode = command === 'help' || command === '--help' ? 0 : 2;
  }
}

main().catch((err) => {
  // One line for the mistakes a user can fix; the stack only for the unexpected.
  if (err instanceof ConfigError || err instanceof DatabaseUnavailableError || err instanceof StartupError) {
    process.stderr.write(`Error: ${err.message}\n`);
  } else {
    process.stderr.write(`Error inesperado: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
