/** What a test can check of a Windows executable without Windows: its PE headers. */

export interface PeHeaders {
  machine: number;
  /** 0x20b: PE32+. */
  optionalMagic: number;
  /** 3: a console program. */
  subsystem: number;
  sections: { name: string; rawOffset: number; rawSize: number }[];
  entryPoint: number;
  imports: string[];
}

export function readPe(f: Buffer): PeHeaders {
  if (f.toString("latin1", 0, 2) !== "MZ") throw new Error("no MZ header");
  const pe = f.readUInt32LE(0x3c);
  if (f.toString("latin1", pe, pe + 4) !== "PE\0\0") throw new Error("no PE signature");
  const coff = pe + 4;
  const count = f.readUInt16LE(coff + 2);
  const optSize = f.readUInt16LE(coff + 16);
  const opt = coff + 20;
  const sectionsAt = opt + optSize;
  const sections = Array.from({ length: count }, (_, i) => {
    const s = sectionsAt + i * 40;
    return { name: f.toString("latin1", s, s + 8).replace(/\0+$/, ""), va: f.readUInt32LE(s + 12), vsize: f.readUInt32LE(s + 8), rawSize: f.readUInt32LE(s + 16), rawOffset: f.readUInt32LE(s + 20) };
  });
  const fileOffset = (rva: number) => {
    const s = sections.find((x) => rva >= x.va && rva < x.va + Math.max(x.vsize, x.rawSize));
    if (!s) throw new Error(`RVA ${rva} is in no section`);
    return rva - s.va + s.rawOffset;
  };
  // The import directory (data directory 1): each DLL the loader must find.
  const importRva = f.readUInt32LE(opt + 112 + 8);
  const imports: string[] = [];
  if (importRva) {
    for (let d = fileOffset(importRva); f.readUInt32LE(d + 12) !== 0; d += 20) {
      const at = fileOffset(f.readUInt32LE(d + 12));
      imports.push(f.toString("latin1", at, f.indexOf(0, at)).toLowerCase());
    }
  }
  return {
    machine: f.readUInt16LE(coff),
    optionalMagic: f.readUInt16LE(opt),
    subsystem: f.readUInt16LE(opt + 68),
    entryPoint: f.readUInt32LE(opt + 16),
    sections: sections.map(({ name, rawOffset, rawSize }) => ({ name, rawOffset, rawSize })),
    imports,
  };
}
