import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('ADMIN_PASSWORD', () => {
  it('must follow the password rule of the product, with the configured minimum', () => {
    const cases: [Record<string, string>, string][] = [
      [{ ADMIN_PASSWORD: 'corta' }, 'La contraseña debe tener al menos 10 caracteres.'],
      [{ ADMIN_PASSWORD: 'Diez-letra', PASSWORD_MIN_LENGTH: '14' }, 'La contraseña debe tener al menos 14 caracteres.'],
      [
        { ADMIN_EMAIL: 'jefe@muni.gt', ADMIN_PASSWORD: 'jefe@muni.gt' },
        'La contraseña no puede ser igual al correo electrónico.',
      ],
      [{ ADMIN_EMAIL: 'jefe@muni.gt', ADMIN_PASSWORD: 'mi-clave-jefe-2026' }, 'La contraseña no puede contener el nombre'],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(`Configuración inválida — ADMIN_PASSWORD: ${message}`);
    }
    expect(loadConfig({ ADMIN_PASSWORD: 'Una-Clave-Larga-2026' }).ADMIN_PASSWORD).toBe('Una-Clave-Larga-2026');
    expect(loadConfig({}).ADMIN_PASSWORD).toBeUndefined();
  });

  it('stops the first start with one Spanish line naming ADMIN_PASSWORD and exit code 1', () => {
    const api = fileURLToPath(new URL('..', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'migrate'], {
      cwd: api,
      env: { ...process.env, ADMIN_PASSWORD: 'corta', DATA_DIR: '/nonexistent/never-created' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      'Error: Configuración inválida — ADMIN_PASSWORD: La contraseña debe tener al menos 10 caracteres.',
    );
  }, 60_000);
});

describe('API_PROCESSES', () => {
  it('is one by default; more than one needs PostgreSQL, refused in Spanish for the embedded database', () => {
    expect(loadConfig({}).API_PROCESSES).toBe(1);
    expect(loadConfig({ API_PROCESSES: '2', DATABASE_URL: 'postgres://localhost/aporta' }).API_PROCESSES).toBe(2);
    expect(() => loadConfig({ API_PROCESSES: '2' })).toThrow(
      'Configuración inválida — API_PROCESSES: más de un proceso necesita PostgreSQL (DATABASE_URL); la base embebida admite uno solo',
    );
    expect(() => loadConfig({ API_PROCESSES: '0', DATABASE_URL: 'postgres://localhost/aporta' })).toThrow(/API_PROCESSES/);
    expect(() => loadConfig({ API_PROCESSES: 'dos', DATABASE_URL: 'postgres://localhost/aporta' })).toThrow(
      'API_PROCESSES: debe ser un número',
    );
  });
});
