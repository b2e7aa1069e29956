export declare const E2E_PORT: number;
export declare const E2E_ADMIN: { email: string; password: string };
export declare const E2E_SMTP_PORT: number;
