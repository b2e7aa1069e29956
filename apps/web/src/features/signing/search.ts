import { formatDateTime } from '../../lib/format.ts';
import { PALETTE_LIMIT, rankResults, type SearchProvider } from '../../lib/searchProviders.ts';
import { downloadDocument, fetchDocumentPdf, findDocumentsForPalette } from './api.ts';

/** Opens a document as the library's list does: a PDF in the browser's viewer, anything else downloaded. */
function openDocument(d: { id: number; contentType: string }) {
  if (d.contentType !== 'application/pdf') return void downloadDocument(d.id).catch(() => undefined);
  // The tab is opened on the click (a pop-up blocker allows it) and pointed at the PDF when it arrives.
  const tab = window.open('about:blank', '_blank');
  fetchDocumentPdf(d.id)
    .then(({ url }) => {
      if (tab) tab.location.href = url;
      else window.open(url, '_blank', 'noopener');
    })
    .catch(() => tab?.close());
}

// The command palette finds a document of the library by title or file name, among those the user
// may read (the server's list); users without the permission get a 403, which is left out.
export const documentSearch: SearchProvider = {
  id: 'documents',
  group: 'signing.paletteDocuments',
  minLength: 3,
  async search(q, { signal }) {
    const { items } = await findDocumentsForPalette(q, signal);
    return rankResults(items, q, (d) => [d.title], PALETTE_LIMIT).map((d) => ({
      id: `document-${d.id}`,
      label: d.title,
      description: [d.folderName, formatDateTime(d.updatedAt)].filter(Boolean).join(' · '),
      onSelect: () => openDocument(d),
    }));
  },
};
