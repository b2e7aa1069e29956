import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { assertSafeKey, createFileStore, FileNotFoundError, type FileStore, localFileStore, s3FileStore } from './files.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'aporta-files-'));
  dirs.push(d);
  return d;
};

/** A stream of `n` chunks of 64 KiB, produced lazily (never the whole file in memory). */
const bigStream = (n: number) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < n; i++) yield Buffer.alloc(65_536, i % 251);
    })(),
  );

function contract(name: string, make: () => FileStore) {
  describe(`${name} file store`, () => {
    it('puts, gets and deletes a file by key', async () => {
      const store = make();
      const put = await store.put('exports/2026-05/1-a.csv', Readable.from(['CUI;Nombre\r\n', '1234;Ána\r\n']), {
        contentType: 'text/csv',
      });
      expect(put.size).toBe(Buffer.byteLength('CUI;Nombre\r\n1234;Ána\r\n'));
      const got = await store.get('exports/2026-05/1-a.csv');
      expect(got.size).toBe(put.size);
      expect(await text(got.body)).toBe('CUI;Nombre\r\n1234;Ána\r\n');
      await store.delete('exports/2026-05/1-a.csv');
      await expect(store.get('exports/2026-05/1-a.csv')).rejects.toBeInstanceOf(FileNotFoundError);
      // Deleting what is not there is not an error.
      await store.delete('exports/2026-05/1-a.csv');
    });

    it('streams a multi-megabyte file in and out', async () => {
      const store = make();
      const put = await store.put('big/file.bin', bigStream(160));
      expect(put.size).toBe(160 * 65_536);
      const got = await store.get('big/file.bin');
      let size = 0;
      for await (const chunk of got.body) size += (chunk as Buffer).length;
      expect(size).toBe(put.size);
      await store.delete('big/file.bin');
    });

    it('a failed upload leaves no file', async () => {
      const store = make();
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(1024));
          this.destroy(new Error('el origen falló'));
        },
      });
      await expect(store.put('broken/x.csv', failing)).rejects.toThrow();
      await expect(store.get('broken/x.csv')).rejects.toBeInstanceOf(FileNotFoundError);
    });

    it('refuses keys that could leave the store', async () => {
      const store = make();
      for (const key of ['../etc/passwd', '/abs', 'a/../../b', 'a//b', '', 'a/./b', 'con espacio']) {
        await expect(store.get(key)).rejects.toThrow(/unsafe storage key/);
      }
    });
  });
}

const localRoot = tempDir();
contract('local', () => localFileStore(localRoot));

let s3: S3rver;
let s3Port = 0;
beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: tempDir(), configureBuckets: [{ name: 'aporta' }] });
  s3Port = (await s3.run()).port;
});
afterAll(async () => {
  await s3?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
// s3rver: a real S3-compatible HTTP server (path-style, signature v4) running in this process.
contract('S3', () =>
  s3FileStore({
    bucket: 'aporta',
    endpoint: `http://127.0.0.1:${s3Port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix: 'instalacion-1',
  }),
);

describe('file store configuration', () => {
  it('keeps files under DATA_DIR/files by default, in S3 when S3_BUCKET is set', async () => {
    const dataDir = tempDir();
    const local = createFileStore(loadConfig({ DATA_DIR: dataDir }));
    expect(local.kind).toBe('local');
    await local.put('a/b.txt', Readable.from(['hola']));
    expect(readdirSync(join(dataDir, 'files', 'a'))).toEqual(['b.txt']);
    const remote = createFileStore(
      loadConfig({
        DATA_DIR: dataDir,
        S3_BUCKET: 'aporta',
        S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      }),
    );
    expect(remote.kind).toBe('s3');
    await remote.put('a/b.txt', Readable.from(['en el balde']));
    expect(await text((await remote.get('a/b.txt')).body)).toBe('en el balde');
  });

  it('refuses a bad S3 endpoint at start-up, naming the variable', () => {
    expect(() => loadConfig({ S3_BUCKET: 'aporta', S3_ENDPOINT: 'no es url' })).toThrow(/S3_ENDPOINT/);
  });

  it('validates keys it is given', () => {
    expect(() => assertSafeKey('exports/2026-05/12-abc.xlsx')).not.toThrow();
    expect(() => assertSafeKey('..')).toThrow();
  });
});
