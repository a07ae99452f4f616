import { open, type FileHandle } from 'node:fs/promises';

/**
 * The names of the streams and storages at the top of an OLE2 compound file (MS-CFB), which is how
 * Word 97 (`WordDocument`), Excel (`Workbook`, `Book`), PowerPoint (`PowerPoint Document`) and
 * encrypted OOXML (`EncryptionInfo`, `EncryptedPackage`) files are told apart. Undefined when the
 * file is not a compound file or its directory cannot be read. Reads only the header, the FAT sectors
 * the directory chain needs and the directory itself, with bounds on every loop.
 */
export async function ole2RootNames(path: string): Promise<string[] | undefined> {
  const fh = await open(path, 'r');
  try {
    return await readRootNames(fh);
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}

const signature = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** Sector numbers at or above this mark the end of a chain or unused sectors. */
const maxRegularSector = 0xfffffffa;
const noStream = 0xffffffff;
/** Far more than any real document's directory; a bound against loops and hostile files. */
const maxDirectorySectors = 4096;
const maxFatSectors = 1 << 20;

async function readRootNames(fh: FileHandle): Promise<string[] | undefined> {
  const header = Buffer.alloc(512);
  const { bytesRead } = await fh.read(header, 0, 512, 0);
  if (bytesRead < 512 || !header.subarray(0, 8).equals(signature)) return undefined;
  const sectorShift = header.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) return undefined;
  const sectorSize = 1 << sectorShift;
  const perSector = sectorSize / 4;
  const fatSectorCount = header.readUInt32LE(0x2c);
  const firstDirSector = header.readUInt32LE(0x30);
  if (fatSectorCount > maxFatSectors) return undefined;

  const readSector = async (n: number): Promise<Buffer> => {
    const buf = Buffer.alloc(sectorSize);
    const { bytesRead: got } = await fh.read(buf, 0, sectorSize, (n + 1) * sectorSize);
    if (got < sectorSize) throw new Error(`short sector ${n}`);
    return buf;
  };

  // Where the FAT sectors are: 109 in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109 && fatSectors.length < fatSectorCount; i++)
    fatSectors.push(header.readUInt32LE(0x4c + i * 4));
  let difat = header.readUInt32LE(0x44);
  const seenDifat = new Set<number>();
  while (fatSectors.length < fatSectorCount && difat < maxRegularSector && !seenDifat.has(difat)) {
    seenDifat.add(difat);
    const buf = await readSector(difat);
    for (let i = 0; i < perSector - 1 && fatSectors.length < fatSectorCount; i++)
      fatSectors.push(buf.readUInt32LE(i * 4));
    difat = buf.readUInt32LE(sectorSize - 4);
  }

  const fatCache = new Map<number, Buffer>();
  const next = async (sector: number): Promise<number> => {
    const index = Math.floor(sector / perSector);
    const at = fatSectors[index];
    if (at === undefined || at >= maxRegularSector) throw new Error('sector outside the FAT');
    let buf = fatCache.get(index);
    if (!buf) {
      buf = await readSector(at);
      fatCache.set(index, buf);
    }
    return buf.readUInt32LE((sector % perSector) * 4);
  };

  // The directory: 128-byte entries in a chain of sectors.
  const entries: Buffer[] = [];
  const seenDir = new Set<number>();
  for (let s = firstDirSector; s < maxRegularSector; s = await next(s)) {
    if (seenDir.has(s) || seenDir.size >= maxDirectorySectors) break;
    seenDir.add(s);
    const buf = await readSector(s);
    for (let o = 0; o < sectorSize; o += 128) entries.push(buf.subarray(o, o + 128));
  }
  const root = entries[0];
  if (!root || root[0x42] !== 5) return undefined;

  // The root's children form a red-black tree through left and right siblings.
  const names: string[] = [];
  const stack = [root.readUInt32LE(0x4c)];
  const visited = new Set<number>();
  while (stack.length) {
    const id = stack.pop()!;
    if (id === noStream || visited.has(id)) continue;
    const entry = entries[id];
    if (!entry) continue;
    visited.add(id);
    const type = entry[0x42];
    const nameBytes = Math.min(64, entry.readUInt16LE(0x40));
    if ((type === 1 || type === 2) && nameBytes >= 2) names.push(entry.toString('utf16le', 0, nameBytes - 2));
    stack.push(entry.readUInt32LE(0x44), entry.readUInt32LE(0x48));
  }
  return names;
}
