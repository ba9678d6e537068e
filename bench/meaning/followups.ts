/**
 * The English follow-up pairs of bench/followups.ts answered with the sentence encoder re-ordering
 * each reading's articles (bench/model-rerank.ts --followups): a message's vector is its own plus
 * CONTEXT.weight times the question it follows, an article's closeness the best cosine of its title's
 * and passages'; w 0 is the reading as shipped.
 */
import { passagesOf } from "../../src/ranking/passages.ts";
import { CONTEXT, type Question } from "../../src/ranking/question.ts";
import { rank } from "../../src/ranking/rank.ts";
import type { Ranking } from "../../src/ranking/types.ts";
import { read } from "../../src/wechat/answering/reading.ts";
import { nextTurn } from "../../src/wechat/answering/reading-turn.ts";
import { MemorySource } from "../eval/memory-source.ts";
import { evaluate, loadAccounts, loadPairs, shownBy, tuningHalf, type Pair } from "../followups.ts";
import { cosine, type Embed } from "./encoders.ts";

const WEIGHTS = [0, 0.5, 1, 2];

export async function meaningFollowups(embed: Embed): Promise<string[]> {
  const memo = new Map<string, Float32Array>();
  const vectors = async (texts: string[]) => {
    const need = [...new Set(texts.filter((t) => !memo.has(t)))];
    for (let i = 0; i < need.length; i += 32) (await embed(need.slice(i, i + 32))).forEach((v, j) => memo.set(need[i + j] as string, Float32Array.from(v)));
    return texts.map((t) => memo.get(t) as Float32Array);
  };
  const out: string[] = [];
  for (const fresh of [false, true]) {
    const accounts = loadAccounts(fresh ? "faq-fresh" : "faq");
    const tuning = tuningHalf(accounts.keys());
    const sources = new Map<string, MemorySource>();
    const articleVectors = new Map<string, Float32Array[]>();
    for (const [id, a] of accounts) {
      if (!id.startsWith("en-")) continue;
      sources.set(id, new MemorySource(a.articles.map((x) => ({ id: x.id, title: x.title, keywords: x.keywords.join("\u001f"), body: x.body }))));
      for (const x of a.articles) articleVectors.set(`${id}/${x.id}`, await vectors([x.title, ...passagesOf(x.body).map((p) => x.body.slice(p.start, p.end).trim()).filter(Boolean)]));
    }
    for (const w of WEIGHTS) {
      const answer = async (p: Pair, conversational: boolean) => {
        const ranker = async (q: Question): Promise<Ranking> => {
          const r = rank(q, sources.get(p.account) as MemorySource);
          const top = r.articles[0]?.score ?? 0;
          if (!w || top <= 0) return r;
          const [own] = await vectors([q.text]);
          const [context] = q.context ? await vectors([q.context]) : [];
          const v = (own as Float32Array).map((x, i) => x + (context ? CONTEXT.weight * (context[i] as number) : 0));
          const close = (id: string) => Math.max(...(articleVectors.get(`${p.account}/${id}`) ?? []).map((a) => cosine(v, a)));
          return { ...r, articles: r.articles.map((a) => ({ ...a, score: (a.score / top + w * close(a.id)) * top })).sort((x, y) => y.score - x.score) };
        };
        const first = await read(p.first, [], ranker);
        const shown = shownBy(first);
        return { first: shown, second: shownBy(await read(p.followup, conversational ? [nextTurn(first, [], "m1", 0, shown)] : [], ranker)) };
      };
      const pairs = loadPairs(fresh ? "followups-fresh" : "followups").filter((p) => p.account.startsWith("en-"));
      const halves: [string, Pair[]][] = fresh ? [["fresh", pairs]] : [["tune", pairs.filter((p) => tuning.has(p.account))], ["held", pairs.filter((p) => !tuning.has(p.account))]];
      for (const [half, some] of halves) {
        const row = (await evaluate(some, answer)).rows.find((r) => r.set === "en.stay+move");
        out.push(`w ${String(w).padEnd(3)} ${half.padEnd(5)} stay+move right first: alone ${row?.alone}, in conversation ${row?.conversation} (${row?.n} pairs)`);
      }
    }
  }
  return out;
}
