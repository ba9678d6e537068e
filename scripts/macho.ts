/**
 * An ad-hoc code signature for a 64-bit Mach-O executable, and its check (docs/install.md).
 *
 * macOS on Apple silicon runs no code without a valid signature, and an Intel Mac refuses a
 * signature that does not match. Bun's darwin-x64 output keeps the signature of the runtime it
 * started from although the program it appended changed 75 of its pages, so every darwin binary
 * is signed again here. An ad-hoc signature is what the linker writes for every arm64 binary: a
 * SuperBlob holding one CodeDirectory — the SHA-256 of each 4 KiB page of the file up to the
 * signature, no certificate. Signing rewrites the LC_CODE_SIGNATURE command and the __LINKEDIT
 * segment for the new size, then hashes the pages (the load commands included) and appends it.
 */
import { createHash } from "node:crypto";

const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CS_ADHOC = 0x2;
const CS_LINKER_SIGNED = 0x20000;
const CS_EXECSEG_MAIN_BINARY = 0x1;
const CS_HASHTYPE_SHA256 = 2;
const PAGE_SHIFT = 12;
const PAGE = 1 << PAGE_SHIFT;
/** The CodeDirectory's fixed part at version 0x20400 (with the executable segment's fields). */
const CD_HEADER = 88;

export const CPU = { arm64: 0x0100000c, x64: 0x01000007 } as const;

interface Segment {
  name: string;
  /** Where its command is in the file. */
  at: number;
  fileoff: number;
  filesize: number;
}

interface Layout {
  cputype: number;
  segments: Segment[];
  /** Where the LC_CODE_SIGNATURE command is, and what it says. */
  signature: { at: number; dataoff: number; datasize: number } | null;
}

export class MachOError extends Error {}

function layout(f: Buffer): Layout {
  if (f.length < 32 || f.readUInt32LE(0) !== MH_MAGIC_64) throw new MachOError("not a 64-bit Mach-O executable (a universal binary is not signed here)");
  const ncmds = f.readUInt32LE(16);
  const segments: Segment[] = [];
  let signature: Layout["signature"] = null;
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    const cmd = f.readUInt32LE(at);
    const size = f.readUInt32LE(at + 4);
    if (size < 8 || at + size > f.length) throw new MachOError("a load command runs past the file");
    if (cmd === LC_SEGMENT_64)
      segments.push({ name: f.toString("latin1", at + 8, at + 24).replace(/\0+$/, ""), at, fileoff: Number(f.readBigUInt64LE(at + 40)), filesize: Number(f.readBigUInt64LE(at + 48)) });
    if (cmd === LC_CODE_SIGNATURE) signature = { at, dataoff: f.readUInt32LE(at + 8), datasize: f.readUInt32LE(at + 12) };
    at += size;
  }
  return { cputype: f.readUInt32LE(4), segments, signature };
}

const segment = (l: Layout, name: string): Segment => {
  const s = l.segments.find((x) => x.name === name);
  if (!s) throw new MachOError(`no ${name} segment`);
  return s;
};

const roundUp = (n: number, to: number) => Math.ceil(n / to) * to;

/** `f` signed ad hoc as `ident`: a new buffer ending with the signature (the old one replaced). */
export function signAdHoc(f: Buffer, ident: string): Buffer {
  const l = layout(f);
  if (!l.signature) throw new MachOError("no LC_CODE_SIGNATURE command to sign into");
  const linkedit = segment(l, "__LINKEDIT");
  const text = segment(l, "__TEXT");
  // The code is everything before the signature: the signature goes where the old one started.
  const codeLimit = l.signature.dataoff;
  // Whatever follows the old signature would be dropped with it: refused rather than lost.
  if (l.signature.dataoff + l.signature.datasize !== f.length) throw new MachOError("bytes follow the code signature: the file does not end with it");
  if (codeLimit % 16 || codeLimit < linkedit.fileoff) throw new MachOError("the signature does not start inside __LINKEDIT on a 16-byte boundary");
  const pages = Math.ceil(codeLimit / PAGE);
  const identBytes = Buffer.from(`${ident}\0`, "utf8");
  const hashOffset = CD_HEADER + identBytes.length;
  const cdLength = hashOffset + pages * 32;
  const length = 12 + 8 + cdLength;

  const out = Buffer.alloc(codeLimit + length);
  f.copy(out, 0, 0, codeLimit);
  // The commands first: the first pages hash them as they will be.
  out.writeUInt32LE(length, l.signature.at + 12);
  const linkeditSize = codeLimit + length - linkedit.fileoff;
  out.writeBigUInt64LE(BigInt(roundUp(linkeditSize, PAGE)), linkedit.at + 32);
  out.writeBigUInt64LE(BigInt(linkeditSize), linkedit.at + 48);

  let o = codeLimit;
  const u32 = (v: number) => ((o = out.writeUInt32BE(v >>> 0, o)), undefined);
  const u64 = (v: number) => ((o = out.writeBigUInt64BE(BigInt(v), o)), undefined);
  const u8 = (v: number) => ((o = out.writeUInt8(v, o)), undefined);
  u32(CSMAGIC_EMBEDDED_SIGNATURE);
  u32(length);
  u32(1);
  u32(0); // CSSLOT_CODEDIRECTORY
  u32(20);
  u32(CSMAGIC_CODEDIRECTORY);
  u32(cdLength);
  u32(0x20400);
  u32(CS_ADHOC | CS_LINKER_SIGNED);
  u32(hashOffset);
  u32(CD_HEADER);
  u32(0); // special slots: no Info.plist, requirements or entitlements
  u32(pages);
  u32(codeLimit);
  u8(32);
  u8(CS_HASHTYPE_SHA256);
  u8(0); // platform
  u8(PAGE_SHIFT);
  u32(0); // spare2
  u32(0); // scatterOffset
  u32(0); // teamOffset
  u32(0); // spare3
  u64(0); // codeLimit64: the 32-bit limit holds it
  u64(text.fileoff);
  u64(text.filesize);
  u64(CS_EXECSEG_MAIN_BINARY);
  o += identBytes.copy(out, o);
  for (let p = 0; p < pages; p++) o += createHash("sha256").update(out.subarray(p * PAGE, Math.min((p + 1) * PAGE, codeLimit))).digest().copy(out, o);
  return out;
}

export interface SignatureCheck {
  cpu: "arm64" | "x64" | "other";
  adhoc: boolean;
  ident: string;
  pages: number;
  /** Pages whose hash is not the file's. */
  mismatched: number;
  /** Why the signature is not one macOS would run, or null. */
  problem: string | null;
}

/** Whether `f` carries a code signature whose page hashes match it, and what kind. */
export function checkSignature(f: Buffer): SignatureCheck {
  const l = layout(f);
  const cpu = l.cputype === CPU.arm64 ? "arm64" : l.cputype === CPU.x64 ? "x64" : "other";
  const none = (problem: string): SignatureCheck => ({ cpu, adhoc: false, ident: "", pages: 0, mismatched: 0, problem });
  if (!l.signature) return none("no code signature");
  const { dataoff, datasize } = l.signature;
  if (dataoff + datasize !== f.length) return none("the file does not end with its signature");
  const linkedit = segment(l, "__LINKEDIT");
  if (linkedit.fileoff + linkedit.filesize !== f.length) return none("__LINKEDIT does not end at the file's end");
  if (f.readUInt32BE(dataoff) !== CSMAGIC_EMBEDDED_SIGNATURE) return none("not an embedded signature");
  const count = f.readUInt32BE(dataoff + 8);
  for (let i = 0; i < count; i++) {
    if (f.readUInt32BE(dataoff + 12 + i * 8) !== 0) continue;
    const cd = dataoff + f.readUInt32BE(dataoff + 16 + i * 8);
    if (f.readUInt32BE(cd) !== CSMAGIC_CODEDIRECTORY) return none("the code directory's magic is wrong");
    const flags = f.readUInt32BE(cd + 12);
    const hashOffset = f.readUInt32BE(cd + 16);
    const identOffset = f.readUInt32BE(cd + 20);
    const pages = f.readUInt32BE(cd + 28);
    const codeLimit = f.readUInt32BE(cd + 32);
    const hashSize = f[cd + 36] as number;
    const hashType = f[cd + 37] as number;
    const pageShift = f[cd + 39] as number;
    const ident = f.toString("utf8", cd + identOffset, f.indexOf(0, cd + identOffset));
    const base = { cpu, adhoc: (flags & CS_ADHOC) !== 0, ident, pages } as const;
    if (hashType !== CS_HASHTYPE_SHA256 || hashSize !== 32) return { ...base, mismatched: 0, problem: "not SHA-256 page hashes" };
    const size = 1 << pageShift;
    let mismatched = 0;
    for (let p = 0; p < pages; p++) {
      const h = createHash("sha256").update(f.subarray(p * size, Math.min((p + 1) * size, codeLimit))).digest();
      if (!h.equals(f.subarray(cd + hashOffset + p * 32, cd + hashOffset + (p + 1) * 32))) mismatched++;
    }
    const problems = [
      ...(codeLimit !== dataoff ? [`the hashed code ends at ${codeLimit}, the signature starts at ${dataoff}`] : []),
      ...(pages !== Math.ceil(codeLimit / size) ? ["the page count does not cover the code"] : []),
      ...(mismatched ? [`${mismatched} of ${pages} pages do not match their hash`] : []),
    ];
    return { ...base, mismatched, problem: problems.length ? problems.join("; ") : null };
  }
  return none("no code directory");
}
