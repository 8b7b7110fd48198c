/** One gzip member of a capture file: standard gzip (RFC 1952) whose header carries the member's own length, so a reader can step from member to member and skip a damaged one. */
import { deflateRawSync } from 'node:zlib';

/** Bytes of the member header: the 10 fixed bytes, XLEN, and one 8-byte extra subfield `BH` holding the member's length. */
export const MEMBER_HEADER_BYTES = 20;
/** Bytes of the trailer: CRC-32 and the uncompressed size, both little-endian. */
export const MEMBER_TRAILER_BYTES = 8;

// ID1 ID2, CM=deflate, FLG=FEXTRA; MTIME 0; XFL 0; OS 255 (unknown); XLEN 8; subfield 'B' 'H' of length 4.
const HEAD = Buffer.from([0x1f, 0x8b, 0x08, 0x04, 0, 0, 0, 0, 0x00, 0xff, 0x08, 0x00, 0x42, 0x48, 0x04, 0x00]);

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** Returns the CRC-32 of `buf` (the gzip trailer's checksum). */
export function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Returns `data` as one complete gzip member whose header records the member's total length. */
export function encodeMember(data: Buffer): Buffer {
  const body = deflateRawSync(data);
  const out = Buffer.allocUnsafe(MEMBER_HEADER_BYTES + body.length + MEMBER_TRAILER_BYTES);
  HEAD.copy(out, 0);
  out.writeUInt32LE(out.length, 16);
  body.copy(out, MEMBER_HEADER_BYTES);
  out.writeUInt32LE(crc32(data), MEMBER_HEADER_BYTES + body.length);
  out.writeUInt32LE(data.length >>> 0, MEMBER_HEADER_BYTES + body.length + 4);
  return out;
}

/** Returns true when a member header starts at `at` in `buf` (at least MEMBER_HEADER_BYTES must be there). */
export function isMemberHeader(buf: Buffer, at: number): boolean {
  for (let i = 0; i < HEAD.length; i++) {
    // MTIME (4..7) and XFL/OS (8, 9) are not checked: only the fixed identification and the subfield id.
    if (i >= 4 && i <= 9) continue;
    if (buf[at + i] !== HEAD[i]) return false;
  }
  return true;
}

/** Returns the total length a member header at `at` declares. */
export function memberLength(buf: Buffer, at: number): number {
  return buf.readUInt32LE(at + 16);
}

/** Returns the offset of the next member header at or after `from`, or -1 when `buf` holds none. */
export function findMemberHeader(buf: Buffer, from: number): number {
  for (let i = buf.indexOf(0x1f, from); i >= 0 && i + MEMBER_HEADER_BYTES <= buf.length; i = buf.indexOf(0x1f, i + 1)) {
    if (isMemberHeader(buf, i)) return i;
  }
  return -1;
}
