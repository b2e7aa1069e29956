// Each worktree or CI run may pick its own port with E2E_PORT so parallel runs do not collide.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_ADMIN = { email: 'admin@aporta.local', password: 'E2e-Sistema-Clave-2026' };
// Where the in-process SMTP server of auth.spec.ts listens; the e2e server sends its mail there (SMTP_URL).
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? E2E_PORT + 1);
