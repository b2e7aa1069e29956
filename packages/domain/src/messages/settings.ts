/**
 * Spanish texts of the settings messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 */
export const settingsMessages = {
} as const;
