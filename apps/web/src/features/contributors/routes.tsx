import type { RouteObject } from 'react-router';

export const contributorRoutes: RouteObject[] = [
  {
    path: 'contributors',
    lazy: async () => ({ Component: (await import('./ContributorsOverviewPage.tsx')).ContributorsOverviewPage }),
  },
  {
    path: 'contributors/list',
    lazy: async () => ({ Component: (await import('./ContributorListPage.tsx')).ContributorListPage }),
  },
  {
    path: 'contributors/new',
    lazy: async () => ({ Component: (await import('./ContributorFormPage.tsx')).ContributorFormPage }),
  },
  {
    path: 'contributors/cui-approval',
    lazy: async () => ({ Component: (await import('./CuiApprovalPage.tsx')).CuiApprovalPage }),
  },
  { path: 'contributors/bulk-upload', lazy: async () => ({ Component: (await import('./BulkUploadPage.tsx')).BulkUploadPage }) },
  {
    path: 'contributors/reports/general',
    lazy: async () => ({ Component: (await import('./ReportPage.tsx')).GeneralReportPage }),
  },
  {
    path: 'contributors/reports/by-municipality',
    lazy: async () => ({ Component: (await import('./ReportPage.tsx')).MunicipalityReportPage }),
  },
  { path: 'contributors/reports/by-type', lazy: async () => ({ Component: (await import('./ReportPage.tsx')).TypeReportPage }) },
  {
    path: 'contributors/:id/edit',
    lazy: async () => ({ Component: (await import('./ContributorFormPage.tsx')).ContributorFormPage }),
  },
  { path: 'contributors/:id', lazy: async () => ({ Component: (await import('./ContributorPage.tsx')).ContributorPage }) },
];
