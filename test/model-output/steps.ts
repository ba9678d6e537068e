/** The output check's steps, each on its own, and the whole check, as test/model-output/cost.test.ts and bench/model-check.ts run them. */
import { checkOutput, holdsRun } from "../../src/llm/output/check.ts";
import { figures } from "../../src/llm/output/figures.ts";
import { groundsOf, ungrounded } from "../../src/llm/output/grounding.ts";
import { findLinks } from "../../src/llm/output/links.ts";
import { dropEmptyBrackets, neutralise, plainText, tidy } from "../../src/llm/output/markup.ts";
import { fold, visible } from "../../src/llm/output/normalise.ts";
import { mask } from "../../src/llm/output/secrets.ts";
import type { Source } from "../../src/llm/prompt.ts";

export const KEY = "sk-live-abcdefghijklmnop0123";
export const SOURCES: Source[] = [{ n: 1, id: "refund", title: "售后政策", url: "https://example.com/refund", passages: ["本店支持七天无理由退货。"] }];
export const RULES = "You answer a follower's question on behalf of an official account. ".repeat(10);
export const check = (s: string) => checkOutput(s, SOURCES, { secrets: [KEY], instructions: RULES, canary: "c0ffee123456", question: "还能退吗", maxBytes: 1848 });

export const STEPS: [string, (s: string) => unknown][] = [
  ["visible", visible],
  ["fold", fold],
  ["plainText", plainText],
  ["neutralise", neutralise],
  ["tidy", tidy],
  ["dropEmptyBrackets", dropEmptyBrackets],
  ["findLinks", findLinks],
  ["figures", figures],
  ["ungrounded", (s) => ungrounded(s, groundsOf(["本店支持七天无理由退货。"]))],
  ["mask", (s) => mask(s, [KEY])],
  ["holdsRun", (s) => holdsRun(s, RULES, 24)],
];
