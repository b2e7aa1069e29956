// Minimal types for the part of unzipper (ExcelJS's own zip reader) used to bound decompression.
declare module 'unzipper' {
  import type { Readable } from 'node:stream';
  export interface CentralDirectoryFile {
    path: string;
    type: 'File' | 'Directory';
    compressedSize: number;
    uncompressedSize: number;
    stream(): Readable;
  }
  export interface ZipSource {
    stream(offset: number, length?: number): Readable;
    size(): Promise<number>;
  }
  export const Open: {
    file(path: string): Promise<{ files: CentralDirectoryFile[] }>;
    custom(source: ZipSource): Promise<{ files: CentralDirectoryFile[] }>;
  };
}

// archiver (ExcelJS's own zip writer) builds the zip-bomb fixture in the tests.
declare module 'archiver' {
  import type { Readable } from 'node:stream';

  interface Archiver extends NodeJS.EventEmitter {
    append(source: string | Buffer | Readable, data: { name: string }): Archiver;
    finalize(): Promise<void>;
  }
  export default function archiver(format: 'zip', options?: { zlib?: { level?: number } }): Archiver;
}
