export const E2E_PORT = 4173;
export const E2E_ADMIN = { email: 'admin@aporta.local', password: 'E2e-Admin-Clave-2026' };
