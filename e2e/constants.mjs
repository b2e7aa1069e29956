// Each worktree or CI run may pick its own port with E2E_PORT so parallel runs do not collide.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_ADMIN = { email: 'admin@aporta.local', password: 'E2e-Sistema-Clave-2026' };
