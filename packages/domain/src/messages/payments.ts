/**
 * Spanish texts of the payments messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 */
export const paymentsMessages = {
} as const;
