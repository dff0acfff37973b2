// The two archive formats the package tools read: tar (npm's .tgz, the Python sdist, a Ruby gem and its
// data.tar.gz) and zip (a Python wheel, a Go module). Every entry gets the same fixed time and mode, so an
// artifact built twice from the same files is the same bytes (pip's and Go's recorded hashes stay true).
import zlib from "node:zlib";

/** One file of an archive: its path inside the archive (forward slashes) and its content. */
export interface TArchiveFile {
  path: string;
  data: Buffer;
}

/** npm pack's fixed entry time (1985-10-26T08:15:00Z), used for every entry of every artifact. */
export const ENTRY_TIME = new Date("1985-10-26T08:15:00Z");

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

/** A ustar header block for a regular file; a path over 100 bytes is split into prefix and name. */
function tarHeader(file: TArchiveFile): Buffer {
  const header = Buffer.alloc(512);
  let name = file.path;
  let prefix = "";
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf("/", 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`path too long for tar: ${file.path}`);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
  }
  header.write(name, 0, 100, "utf8");
  header.write(octal(0o644, 8), 100, "ascii");
  header.write(octal(0, 8), 108, "ascii");
  header.write(octal(0, 8), 116, "ascii");
  header.write(octal(file.data.length, 12), 124, "ascii");
  header.write(octal(Math.floor(ENTRY_TIME.getTime() / 1000), 12), 136, "ascii");
  header.write("        ", 148, "ascii");
  header.write("0", 156, "ascii");
  header.write("ustar\0", 257, "ascii");
  header.write("00", 263, "ascii");
  header.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + " ", 148, "ascii");
  return header;
}

/** An uncompressed tar of `files`, in the order given. */
export function tar(files: readonly TArchiveFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) {
    parts.push(tarHeader(file), file.data);
    const pad = (512 - (file.data.length % 512)) % 512;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** gzip with no name and a zero time in its header, so the bytes depend on the content only. */
export function gzip(data: Buffer): Buffer {
  return zlib.gzipSync(data, { level: 9 });
}

/** The DOS date and time zip stores (local time fields, read back as given). */
function dosTime(date: Date): { time: number; day: number } {
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    day: ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/** A zip of `files` (deflated, UTF-8 names), in the order given. */
export function zip(files: readonly TArchiveFile[]): Buffer {
  const { time, day } = dosTime(ENTRY_TIME);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.path, "utf8");
    const deflated = zlib.deflateRawSync(file.data, { level: 9 });
    const crc = zlib.crc32(file.data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(file.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the mode below is read
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(day, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(file.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, deflated);
    centrals.push(central, name);
    offset += local.length + name.length + deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
