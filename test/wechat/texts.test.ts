/** The language replyd's own texts answer a follower in, until the operator writes theirs (src/wechat/answering/texts.ts). */
import { expect, test } from "bun:test";
import { DEFAULT_TEXTS, languageOf, operatorText } from "../../src/wechat/answering/texts.ts";

test("Chinese when a message holds as many Chinese characters as English words or more; English when more English words", () => {
  for (const said of ["几点开门", "iPhone 15怎么退货", "ok 谢谢", "thanks 谢谢", "幾點開門", "s 天气预报", "晚上呢😊"]) expect({ said, l: languageOf(said) }).toEqual({ said, l: "zh" });
  for (const said of ["what time do you open", "can I pay with WeChat Pay 支付", "zzzz qqqq", "thanks that worked!!"]) expect({ said, l: languageOf(said) }).toEqual({ said, l: "en" });
});

test("a message saying no language (h, ？, digits, an emoji, help, ok) and an event: the operator's own texts' language when any holds Chinese, else English", () => {
  const chinese = { welcome: "欢迎！回复h查看帮助" };
  for (const said of ["h", "？", "?", "12", "👍", "help", "ok", ""]) {
    expect({ said, l: languageOf(said) }).toEqual({ said, l: "en" });
    expect({ said, l: languageOf(said, chinese) }).toEqual({ said, l: "zh" });
  }
  expect(languageOf("h", { welcome: "Welcome, send h" })).toBe("en");
});

test("the operator's text wins over either default; the defaults exist for every text in both languages", () => {
  expect(operatorText({ fallback: "对不起，没听懂" }, "fallback")).toBe("对不起，没听懂");
  expect(Object.keys(DEFAULT_TEXTS.zh).sort()).toEqual(Object.keys(DEFAULT_TEXTS.en).sort());
  for (const t of Object.values(DEFAULT_TEXTS.zh)) expect(t).toMatch(/\p{Script=Han}/u);
});

test("with no text of the operator's, a message saying no language is answered in the language of the account's article titles, read only then", () => {
  let read = 0;
  const titles = (t: string) => () => (read++, t);
  expect(languageOf("h", {}, titles("新装用水开户办理指南\n水费缴纳方式\nFAQ"))).toBe("zh");
  expect(languageOf("", {}, titles("Opening hours\nParking and access\n停车"))).toBe("en");
  expect(languageOf("👍", {}, titles(""))).toBe("en");
  expect(read).toBe(3);
  expect(languageOf("几点开门", {}, titles("Opening hours"))).toBe("zh");
  expect(languageOf("h", { fallback: "Sorry" }, titles("水费缴纳方式"))).toBe("en");
  expect(read).toBe(3);
});
