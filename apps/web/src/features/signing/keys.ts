/** Query keys of Documentos and firma digital. */
export const signingKeys = {
  all: ['signing'] as const,
  certificates: (params: unknown) => [...signingKeys.all, 'certificates', params] as const,
  settings: () => [...signingKeys.all, 'settings'] as const,
  signers: () => [...signingKeys.all, 'signers'] as const,
  requests: (kind: string, params: unknown) => [...signingKeys.all, 'requests', kind, params] as const,
  request: (id: number | null) => [...signingKeys.all, 'request', id] as const,
  count: () => [...signingKeys.all, 'count'] as const,
  rules: () => [...signingKeys.all, 'rules'] as const,
  folders: (parentId: number | null) => [...signingKeys.all, 'folders', parentId] as const,
  documentOptions: () => [...signingKeys.all, 'document-options'] as const,
  documents: (params: unknown) => [...signingKeys.all, 'documents', params] as const,
  userOptions: () => [...signingKeys.all, 'user-options'] as const,
};
