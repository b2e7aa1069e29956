import type { RouteObject } from 'react-router';

export const signingRoutes: RouteObject[] = [
  { path: 'folders', lazy: async () => ({ Component: (await import('./FoldersPage.tsx')).FoldersPage }) },
  { path: 'administradorFirma', lazy: async () => ({ Component: (await import('./CertificatesPage.tsx')).CertificatesPage }) },
  { path: 'firmaAutomatica', lazy: async () => ({ Component: (await import('./AutoSignPage.tsx')).AutoSignPage }) },
  { path: 'firmaDoc/upload', lazy: async () => ({ Component: (await import('./UploadPage.tsx')).UploadPage }) },
  {
    path: 'firmaDoc/pendientes',
    lazy: async () => {
      const { RequestsPage } = await import('./RequestsPage.tsx');
      return { element: <RequestsPage key="pending" kind="pending" /> };
    },
  },
  {
    path: 'firmaDoc/signed',
    lazy: async () => {
      const { RequestsPage } = await import('./RequestsPage.tsx');
      return { element: <RequestsPage key="signed" kind="signed" /> };
    },
  },
  {
    path: 'firmaDoc/rechazados',
    lazy: async () => {
      const { RequestsPage } = await import('./RequestsPage.tsx');
      return { element: <RequestsPage key="rejected" kind="rejected" /> };
    },
  },
  { path: 'firmaDoc/verificar', lazy: async () => ({ Component: (await import('./VerifyPage.tsx')).VerifyPage }) },
];
