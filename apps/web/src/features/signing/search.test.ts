import { describe, expect, it, vi } from 'vitest';

const api = vi.hoisted(() => ({ findDocumentsForPalette: vi.fn(), downloadDocument: vi.fn(), fetchDocumentPdf: vi.fn() }));
vi.mock('./api.ts', () => api);
const { documentSearch } = await import('./search.ts');

describe('document palette search', () => {
  it('finds documents by title and opens a non-PDF one by downloading it', async () => {
    api.findDocumentsForPalette.mockResolvedValue({
      items: [
        {
          id: 8,
          title: 'Contrato de servicios',
          folderName: 'Contratos',
          updatedAt: '2026-11-26T15:00:00Z',
          contentType: 'text/plain',
        },
        {
          id: 5,
          title: 'Acta de cierre',
          folderName: 'Actas',
          updatedAt: '2026-11-20T15:00:00Z',
          contentType: 'application/pdf',
        },
      ],
    });
    api.downloadDocument.mockResolvedValue(undefined);
    const r = await documentSearch.search('acta', { signal: new AbortController().signal });
    expect(r.map((x) => x.label)).toEqual(['Acta de cierre', 'Contrato de servicios']);
    expect(r[0].description).toContain('Actas');
    r[1].onSelect?.();
    expect(api.downloadDocument).toHaveBeenCalledWith(8);
  });
});
