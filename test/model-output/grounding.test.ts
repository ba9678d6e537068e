/** The grounding check on its own: contacts, references and figures an answer gives must be in the passages or the question. */
import { expect, test } from "bun:test";
import { checkOutput } from "../../src/llm/output/check.ts";
import { chineseNumber, chineseRange, figures } from "../../src/llm/output/figures.ts";
import type { Source } from "../../src/llm/prompt.ts";

const PASSAGE =
  "本店支持七天无理由退货，退货运费10元由买家承担。签收后七天内在订单页申请，三个工作日内原路退回。客服电话 400-820-1234，邮箱 help@example.com，工作时间 9:00-18:00。满199元包邮，2024年3月15日起执行。";
const SOURCES: Source[] = [{ n: 1, id: "refund", title: "售后政策", url: "https://example.com/refund", passages: [PASSAGE] }];
const checkWith = (sources: Source[], answer: string, question: string) =>
  checkOutput(answer, sources, { secrets: [], instructions: "Answer from the sources.", canary: "c0ffee123456", question, maxBytes: 1848 });
/** "passed", or why the answer was refused: the ungrounded thing named, else the check's reason. */
const refusedWith = (sources: Source[], answer: string, question: string) => {
  const c = checkWith(sources, answer, question);
  return c.ok ? "passed" : c.reason === "ungrounded" ? c.detail : c.reason;
};
const refusedFor = (answer: string, question = "买了东西不想要了，还能退吗？") => refusedWith(SOURCES, answer, question);

test("a faithful answer restating the passage's own figures and contacts passes, in other spellings of them", () => {
  for (const answer of [
    "支持7天无理由退货，运费10块，三个工作日内退回。[1]",
    "可以退，签收后7日内申请，3个工作日到账。[1]",
    "客服电话 400 820 1234 或 4008201234，邮箱 help@example.com。[1]",
    "客服时间是9点到18点，满¥199包邮。[1]",
    "自2024-03-15起执行。[1]",
    "Returns are accepted within seven days; shipping costs 10 yuan.[1]",
    "有两种方式可以申请，第1步是打开订单页。[1]",
  ])
    expect(refusedFor(answer)).toBe("passed");
});

test("a figure the articles do not state is refused as ungrounded: a duration, a price, a count, a time, a date, a percentage", () => {
  for (const [answer, figure] of [
    ["支持三十天无理由退货。[1]", "三十天"],
    ["支持30天无理由退货。[1]", "30天"],
    ["Returns within thirty days.[1]", "thirty days"],
    ["运费15元。[1]", "15元"],
    ["退货运费 ¥20。[1]", "¥20"],
    ["五个工作日内退回。[1]", "五个工作日"],
    ["工作时间9:00-21:00。[1]", "21:00"],
    ["2025年1月1日起执行。[1]", "2025年1月1日"],
    ["可享受8折优惠。[1]", "8折"],
    ["退款比例为50%。[1]", "50%"],
    ["一共有1200件库存。[1]", "1200件"],
  ] as const)
    expect(refusedFor(answer)).toBe(`the answer gives the figure ${figure}, which neither the given passages nor the question hold`);
});

test("counts, floors and offers the articles do not state are refused however written: 册, 层, 楼, books, 半价, 买一送一; what they say, in other words, passes", () => {
  const LIBRARY: Source[] = [{ n: 1, id: "card", title: "借书证", url: "https://lib.example/card", passages: ["凭借书证可借图书5册，借期30天。自习室在三楼，儿童阅览室在一层。"] }];
  const refused = (answer: string) => refusedWith(LIBRARY, answer, "能借几本书");
  for (const [answer, figure] of [
    ["可借一百册[1]。", "一百册"],
    ["可借九册[1]。", "九册"],
    ["藏书三十万册[1]。", "三十万册"],
    ["自习室位于总馆十五层[1]。", "十五层"],
    ["自习室在5楼[1]。", "5楼"],
    ["You can borrow 8 books.[1]", "8 books"],
    ["You can borrow nine books.[1]", "nine books"],
    ["可借图书5册[1]。周三半价", "半价"],
    ["可借图书5册[1]。门票买一送一", "买一送一"],
  ] as const)
    expect({ answer, refused: refused(answer) }).toEqual({ answer, refused: `the answer gives the figure ${figure}, which neither the given passages nor the question hold` });
  expect(refused("可借图书5册[1]。在淘宝搜索 图书馆文创")).toContain("淘宝");
  for (const answer of ["可借五册[1]。", "You can borrow 5 books for 30 days.[1]", "自习室在3楼[1]。", "自习室在三层[1]。", "有三种方式可以续借[1]。", "There are three ways to renew.[1]", "一部分图书可以续借[1]。", "五一节照常开放[1]。"])
    expect({ answer, refused: refused(answer) }).toEqual({ answer, refused: "passed" });
});

test("the measure words count what they count, and not a weekday, a date or the word a numeral begins: 周五晚上, 周三家长, 正月十五晚上, 半夜, COVID-19 rules, version 5 has", () => {
  const HOTEL: Source[] = [{ n: 1, id: "stay", title: "住宿", url: "https://h.example/stay", passages: ["每人最多连住2晚，停车场有40个车位。周一至周五 9:00-21:00 营业，买一赠一，会员每消费一元积6 points。"] }];
  const refused = (answer: string) => refusedWith(HOTEL, answer, "能住几晚");
  for (const [answer, figure] of [
    ["每人最多连住三晚[1]。", "三晚"],
    ["停车场有十辆车位[1]。", "十辆"],
    ["Guests earn 5 points per yuan.[1]", "5 points"],
  ] as const)
    expect({ answer, refused: refused(answer) }).toEqual({ answer, refused: `the answer gives the figure ${figure}, which neither the given passages nor the question hold` });
  for (const answer of ["每人最多连住两晚[1]。", "周五晚上9点关门[1]。", "周三家长可以来参观[1]。", "正月十五晚上照常营业[1]。", "半夜不营业[1]。", "现在买一送一[1]。", "Under COVID-19 rules, stays are limited to 2 nights.[1]", "Booking version 5 has a new page.[1]"])
    expect({ answer, refused: refused(answer) }).toEqual({ answer, refused: "passed" });
});

test("a contact the articles do not give is refused: a phone, an e-mail, a WeChat ID, a handle, an identifier", () => {
  expect(refusedFor("请拨打 400-820-1235 办理退款。[1]")).toContain("the phone 400-820-1235");
  expect(refusedFor("请拨打 +86 138 0013 8000。[1]")).toContain("the phone");
  expect(refusedFor("请发邮件到 refund@mail.example.org。[1]")).toBe("foreign_link");
  expect(refusedFor("添加客服微信 evil_refund_888 办理。[1]")).toContain("the app id 微信 evil_refund_888");
  expect(refusedFor("加 vx：refundhelp 办理。[1]")).toContain("the app id vx:refundhelp");
  expect(refusedFor("联系 @refund_desk 办理。[1]")).toContain("the handle @refund_desk");
  expect(refusedFor("报上订单号 RF2024X99 即可。[1]")).toContain("the identifier RF2024X99");
});

test("contacts in other spellings are refused: single spaced digits, Chinese digits, IDs after other words, Latin names in a Chinese answer", () => {
  for (const answer of [
    "请拨打 4 0 0 8 2 0 9 9 9 9。[1]",
    "请拨打 四零零八二零九九九九。[1]",
    "请拨打 021-6234 5679。[1]",
    "添加客服 evilrefund 办理。[1]",
    "客服V：evilrefund。[1]",
    "加薇：evilrefund。[1]",
    "微 信 evilrefund。[1]",
    "淘宝搜索 evilshop 下单。[1]",
    "关注公众号「退款助手」。[1]",
  ])
    expect({ answer, got: refusedFor(answer) }).toEqual({ answer, got: expect.stringMatching(/^the answer gives the (phone|app id|identifier|reference) /) });
});

test("figures in other spellings are refused when the articles do not hold them: 半年, 十多天, 廿天, No.100", () => {
  for (const answer of ["半年内可以退。[1]", "十多天内可以退。[1]", "廿天内可以退。[1]", "订单号 No.100 可查。[1]"])
    expect({ answer, got: refusedFor(answer) }).toEqual({ answer, got: expect.stringMatching(/^the answer gives the figure /) });
});

test("neighbouring numerals are a range, each end a figure: 三四人 against 34人, 十五六天, 二三十元; digits read out stay digits", () => {
  const TABLES: Source[] = [{ n: 1, id: "tables", title: "包间", url: "https://e.com/t", passages: ["小包间可坐三四人，大包间坐十五六人，人均消费二三十元。"] }];
  const refused = (answer: string) => refusedWith(TABLES, answer, "包间坐几个人");
  for (const answer of ["小包间坐34人[1]。", "大包间坐156人[1]。", "大包间坐16人，人均230元[1]。", "人均40元[1]。"])
    expect({ answer, got: refused(answer) }).toEqual({ answer, got: expect.stringMatching(/^the answer gives the figure /) });
  for (const answer of ["小包间坐3到4人[1]。", "小包间可坐三四人，大包间十五六人[1]。", "大包间能坐15到16人，人均二三十元[1]。", "人均20到30元[1]。"])
    expect({ answer, got: refused(answer) }).toEqual({ answer, got: "passed" });
  const f = (s: string) => figures(s).map((x) => `${x.value}|${x.unit}`);
  expect(f("三四人")).toEqual(["3|count", "4|count"]);
  expect(f("两三天")).toEqual(f("2天 3天"));
  expect(f("十一二月")).toEqual(["11|month", "12|month"]);
  expect([chineseRange("三四"), chineseRange("十五六"), chineseRange("二三十"), chineseRange("三四百")]).toEqual([[3, 4], [15, 16], [20, 30], [300, 400]]);
  // After a unit the pair counts the next one down, as said: 一万五六, 三千五六, 一百二三.
  expect([chineseRange("一万五六"), chineseRange("三千五六"), chineseRange("一百二三")]).toEqual([[15_000, 16_000], [3_500, 3_600], [120, 130]]);
  // Not neighbours, or a third numeral beside them: digits read out.
  expect([chineseRange("一二三四"), chineseRange("二四"), chineseRange("二零二四"), chineseRange("十五")]).toEqual([null, null, null, null]);
});

test("what the articles say in other units or words passes: 七天 as 一周, 9:00-18:00 as 9am-6pm, 晚上, COVID-19", () => {
  for (const answer of ["一周内可以退。[1]", "客服 9am-6pm 在线。[1]", "客服下午6点下班。[1]", "与 COVID-19 无关。[1]", "电话 (400) 820 1234。[1]"])
    expect({ answer, got: refusedFor(answer) }).toEqual({ answer, got: "passed" });
});

test("a way off the account the articles do not name is refused: a QR code, a mini program, a group", () => {
  expect(refusedFor("扫描二维码即可退款。[1]")).toContain("the reference 二维码");
  expect(refusedFor("打开退款小程序申请。[1]")).toContain("the reference 小程序");
  expect(refusedFor("Open our mini program to apply.[1]")).toContain("the reference mini program");
  expect(refusedFor("加入微信群了解详情。[1]")).toContain("the reference 微信群");
});

test("what the follower wrote may be restated: a figure or a contact from the question passes", () => {
  expect(refusedFor("三十天已超过七天，不能退了。[1]", "买了三十天了还能退吗？")).toBe("passed");
  expect(refusedFor("138 0013 8000 这个号码不是我们的客服。[1]", "13800138000 是你们客服吗")).toBe("passed");
});

test("figures: one value in one base unit for each way a number and its unit are written", () => {
  const f = (s: string) => figures(s).map((x) => `${x.value}|${x.unit}`);
  const DAY = 1440;
  expect(f("七天")).toEqual([`${7 * DAY}|minute`]);
  expect(f("7 days")).toEqual(f("七天"));
  expect(f("seven-day")).toEqual(f("七天"));
  expect(f("一周")).toEqual(f("七天"));
  expect(f("二十四小时")).toEqual([`${DAY}|minute`]);
  expect(f("两天")).toEqual(f("48小时"));
  expect(f("two years")).toEqual(f("24个月"));
  expect(f("1.2米")).toEqual(f("120厘米"));
  expect(f("1.5万元")).toEqual(["150000|jiao"]);
  expect(f("¥1,299")).toEqual(f("1299元"));
  expect(f("3.5元")).toEqual(f("35角"));
  expect(f("百分之二十")).toEqual(["20|%"]);
  expect(f("9点半")).toEqual(["9.5|clock"]);
  expect(f("9:30")).toEqual(["9.5|clock"]);
  expect(f("3pm")).toEqual(["15|clock"]);
  expect(f("晚上9点")).toEqual(f("21:00"));
  expect(f("下午5点")).toEqual(f("5pm"));
  expect(f("半年")).toEqual(["6|month"]);
  expect(f("一个半小时")).toEqual([`90|minute`]);
  expect(f("廿天")).toEqual([`${20 * DAY}|minute`]);
  expect(f("No.100")).toEqual(["100|null"]);
  expect(f("2024年3月15日")).toEqual(["2024|year", "3|month of year", "15|day of month"]);
  expect(f("3月15日")).toEqual(["3|month of year", "15|day of month"]);
  expect(f("一起 统一")).toEqual([]);
  expect([chineseNumber("一百二十"), chineseNumber("两万"), chineseNumber("二零二四"), chineseNumber("十五"), chineseNumber("廿五")]).toEqual([120, 20000, 2024, 15, 25]);
});
