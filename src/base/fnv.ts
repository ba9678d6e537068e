/** 32-bit FNV-1a over UTF-16 code units: fast and well spread for short keys such as ids and MsgIds. */
export function fnv1a(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
