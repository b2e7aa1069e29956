import { randomBytes } from 'node:crypto';

/**
 * An OLE compound file (CFB, version 3, 512-byte sectors) holding `streams`, as Office writes an old
 * .xls (a `Workbook` stream) or a password-protected xlsx (`EncryptionInfo` and `EncryptedPackage`). Each
 * stream is padded to 4 096 bytes so that it lives in regular sectors (no mini stream); at most three.
 */
export function compoundFile(streams: Record<string, Uint8Array>): Buffer {
  const SECTOR = 512;
  const FREE = 0xffffffff;
  const END = 0xfffffffe;
  const FATSECT = 0xfffffffd;
  const entries = Object.entries(streams)
    .map(([name, data]) => ({ name, data: Buffer.concat([Buffer.from(data), Buffer.alloc(Math.max(0, 4096 - data.length))]) }))
    // Siblings in the directory's order: shorter names first, then by upper-case name.
    .sort((a, b) => a.name.length - b.name.length || a.name.toUpperCase().localeCompare(b.name.toUpperCase()));
  if (entries.length > 3) throw new Error('compoundFile: at most three streams');
  // Sector 0: the FAT; sector 1: the directory; then each stream's sectors.
  const fat: number[] = [FATSECT, END];
  const starts: number[] = [];
  for (const e of entries) {
    const count = Math.ceil(e.data.length / SECTOR);
    starts.push(fat.length);
    for (let i = 0; i < count; i++) fat.push(i === count - 1 ? END : fat.length + 1);
  }
  if (fat.length > SECTOR / 4) throw new Error('compoundFile: streams too large for one FAT sector');
  const header = Buffer.alloc(SECTOR);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x003e, 24);
  header.writeUInt16LE(3, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  header.writeUInt32LE(1, 44); // FAT sectors
  header.writeUInt32LE(1, 48); // first directory sector
  header.writeUInt32LE(4096, 56); // mini stream cutoff
  header.writeUInt32LE(END, 60); // first mini FAT sector
  header.writeUInt32LE(END, 68); // first DIFAT sector
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i === 0 ? 0 : FREE, 76 + i * 4);
  const fatSector = Buffer.alloc(SECTOR, 0xff);
  for (const [i, v] of fat.entries()) fatSector.writeUInt32LE(v, i * 4);
  const dir = Buffer.alloc(SECTOR);
  const entry = (
    i: number,
    name: string,
    type: number,
    opts: { child?: number; right?: number; start?: number; size?: number },
  ) => {
    const at = i * 128;
    const n = Buffer.from(`${name}\0`, 'utf16le');
    n.copy(dir, at);
    dir.writeUInt16LE(n.length, at + 64);
    dir[at + 66] = type;
    dir[at + 67] = 1; // black
    dir.writeUInt32LE(FREE, at + 68);
    dir.writeUInt32LE(opts.right ?? FREE, at + 72);
    dir.writeUInt32LE(opts.child ?? FREE, at + 76);
    dir.writeUInt32LE(opts.start ?? END, at + 116);
    dir.writeUInt32LE(opts.size ?? 0, at + 120);
  };
  entry(0, 'Root Entry', 5, { child: entries.length ? 1 : FREE });
  for (const [i, e] of entries.entries())
    entry(i + 1, e.name, 2, { right: i + 1 < entries.length ? i + 2 : FREE, start: starts[i], size: e.data.length });
  for (let i = entries.length + 1; i < 4; i++) {
    dir.writeUInt32LE(FREE, i * 128 + 68);
    dir.writeUInt32LE(FREE, i * 128 + 72);
    dir.writeUInt32LE(FREE, i * 128 + 76);
  }
  const data = entries.map((e) => Buffer.concat([e.data, Buffer.alloc((SECTOR - (e.data.length % SECTOR)) % SECTOR)]));
  return Buffer.concat([header, fatSector, dir, ...data]);
}

/** A workbook protected with a password as Excel saves it: the package encrypted inside a compound file. */
export function encryptedWorkbook(): Buffer {
  // EncryptionInfo of the agile kind: version 4.4, flags 0x40, then its XML descriptor.
  const xml = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<encryption xmlns="http://schemas.microsoft.com/office/2006/encryption"><keyData saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="AAAAAAAAAAAAAAAAAAAAAA=="/></encryption>',
  );
  const info = Buffer.concat([Buffer.from([4, 0, 4, 0, 0x40, 0, 0, 0]), xml]);
  const size = Buffer.alloc(8);
  size.writeUInt32LE(6000, 0);
  const pkg = Buffer.concat([size, randomBytes(6016)]);
  return compoundFile({ EncryptionInfo: info, EncryptedPackage: pkg });
}

/** An old binary workbook (.xls): a compound file with a `Workbook` stream. */
export function legacyWorkbook(): Buffer {
  return compoundFile({ Workbook: Buffer.from([0x09, 0x08, 0x10, 0x00, 0x00, 0x06, 0x05, 0x00]) });
}

/** `text` as UTF-16: little or big endian, with or without its byte-order mark. */
export function utf16(text: string, endian: 'le' | 'be', bom: boolean): Buffer {
  const le = Buffer.from(`${bom ? '\uFEFF' : ''}${text}`, 'utf16le');
  return endian === 'le' ? le : Buffer.from(le).swap16();
}
