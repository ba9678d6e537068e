/** Which passage of an article a follower is shown (src/ranking/shown-passage.ts). */
import { describe, expect, test } from "bun:test";
import { passageScore, RANKING, type CorpusStats, type QueryTerm } from "../src/ranking/bm25.ts";
import { shownPassage, type Cut } from "../src/ranking/shown-passage.ts";
import { PRICE_FAR, titledPrice } from "../src/ranking/price.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { rank } from "../src/ranking/rank.ts";
import { MemorySource } from "../bench/eval/memory-source.ts";

const stats: CorpusStats = { articles: 10, headLen: 4, bodyLen: 300, passageLen: 100 };
const q: QueryTerm[] = [{ term: "导出", idf: 2, known: true }];
/** A passage holding the question's word once, `len` terms long, at `start`. */
const cut = (start: number, len: number): Cut => ({ start, end: start + 10, score: 1, counts: new Map([["导出", 1]]), len });
/** The length of a first passage scoring `share` of a second one of the average length (longer scores less). */
function lengthScoring(share: number): number {
  const second = passageScore(q, new Map([["导出", 1]]), stats.passageLen, stats.passageLen);
  let len = stats.passageLen;
  while (passageScore(q, new Map([["导出", 1]]), len, stats.passageLen) > second * share) len++;
  return len;
}

describe("the passage shown", () => {
  test(`an earlier passage scoring at least ${RANKING.shownEarlier} of the best is shown before it; one scoring just under, not`, () => {
    // Every passage holds the word (the within-article weight is the same for all): only their lengths tell them apart.
    const within = lengthScoring(RANKING.shownEarlier + 0.03) - 1;
    const under = lengthScoring(RANKING.shownEarlier - 0.03);
    const third = cut(200, stats.passageLen * 3);
    expect(shownPassage(q, [cut(0, within), cut(100, stats.passageLen), third], stats, null)?.start).toBe(0);
    expect(shownPassage(q, [cut(0, under), cut(100, stats.passageLen), third], stats, null)?.start).toBe(100);
  });

  test("an article's first paragraph answering is shown, not a later note holding the question's words as much (导出成pdf: the way to export, not the private notes' caveat)", () => {
    const notes = new MemorySource([
      {
        id: "export",
        title: "导出笔记",
        keywords: "导出\u001fPDF",
        body: "单篇导出：打开笔记 —“…”— 导出，可选 PDF、Word（.docx）、Markdown（.md）、长图片。手机端导出后可以直接发送到微信或保存到文件。\n\n批量导出（云笺 Pro）：在桌面端右键某个笔记本，选择“导出笔记本”，会生成一个 zip 压缩包，内含该笔记本所有笔记的 Markdown 或 HTML 文件及附件。\n\n私密笔记需要先输入私密密码才能导出，导出后的文件不再加密，请妥善保管。",
      },
      { id: "private", title: "私密笔记", keywords: "加密", body: "在笔记的“…”菜单中选择“设为私密笔记”，首次使用需设置私密密码，设置完成后生效。" },
      { id: "sync", title: "同步失败", keywords: "同步", body: "切换 Wi-Fi 和移动网络试试，确认两台设备登录的笔记账号是同一个，等同步完成。" },
      { id: "search", title: "搜索笔记", keywords: "搜索", body: "图片和 PDF 附件中的文字也能搜到，笔记标题和正文都会被搜索。" },
      { id: "storage", title: "存储空间不足", keywords: "空间", body: "存储空间只计算附件（图片、录音），纯文字笔记几乎不占空间，清空回收站后生成新的用量。" },
    ]);
    // Its words' pair 能导 is held by the caveat alone ("才能导出"), PDF by other articles too: on the best score alone, the caveat was shown.
    const got = rank("笔记能导出成pdf吗", notes).articles[0];
    expect(got?.id).toBe("export");
    expect(got?.passage).toStartWith("单篇导出");
  });

  test("a passage under a heading the question writes out is shown, not the preamble saying the subject again (异地就医怎么备案: 怎么备案's passage)", () => {
    const hall = new MemorySource([
      {
        id: "yidi",
        title: "异地就医备案办理指南",
        keywords: "异地就医\u001f备案",
        body: "近期有不少参保人咨询在外地看病如何报销的问题。根据国家和省里的统一部署，跨省异地就医直接结算已经覆盖全国所有统筹地区，参保人在外地看病前做好备案，就可以在当地定点医院直接刷卡结算。\n\n未备案在外地就医的，回来后可以手工报销，但个人自付比例提高10个百分点。\n\n哪些人可以备案\n\n1.异地长期居住人员：异地安置退休人员、异地长期居住人员、常驻异地工作人员。2.临时外出就医人员：异地转诊就医人员、因工作或旅游等原因异地急诊抢救人员。\n\n怎么备案\n\n网上办理：打开“国家医保服务平台”APP，搜索“异地就医备案”，填写备案地和备案类型，提交后即时生效。\n\n窗口办理：携带本人社保卡，到本大厅医保窗口填写《异地就医备案表》。",
      },
      { id: "card", title: "社保卡补办", keywords: "社保卡", body: "社保卡丢失后请先挂失，再到大厅补办，工本费20元。" },
      { id: "hours", title: "办公时间", keywords: "上班", body: "周一至周五9:00-17:00，法定节假日休息。" },
    ]);
    const got = rank("异地就医怎么备案", hall).articles[0];
    expect(got?.id).toBe("yidi");
    expect(got?.passage).toStartWith("怎么备案");
    // A question writing out no heading: the passage that answers it, the first paragraph here.
    expect(rank("外地看病没备案能报销吗", hall).articles[0]?.passage).toStartWith("近期有不少参保人");
  });

  test("a heading written out with its number (二、怎么备案) names its passage; a named heading far below the best passage does not win (a review)", () => {
    const numbered = new MemorySource([
      { id: "yidi", title: "异地就医备案办理指南", keywords: "异地就医", body: `${"根据统一部署，跨省异地就医直接结算已经覆盖全国，参保人在外地看病前做好备案，就可以在当地直接刷卡结算。".repeat(3)}\n\n二、怎么备案\n\n打开国家医保服务平台APP，搜索异地就医备案，填写备案地，提交后即时生效。` },
      { id: "card", title: "社保卡补办", keywords: "社保卡", body: "社保卡丢失后请先挂失，再到大厅补办。" },
    ]);
    expect(rank("异地就医怎么备案", numbered).articles[0]?.passage).toStartWith("二、怎么备案");
    const pool = new MemorySource([
      {
        id: "hours",
        title: "Pool opening hours",
        keywords: "hours",
        body: `Opening hours\n\n${"We open at 7am and close at 9pm every day of the week for swimmers, gym members and classes. ".repeat(2)}\n\nHolidays\n\nOn Christmas Eve we open 7am to 2pm, and on New Year's Eve 7am to 5pm. On Christmas Day and Boxing Day the pool is closed, and Christmas Eve lessons are cancelled.`,
      },
      { id: "lessons", title: "Swimming lessons", keywords: "lessons", body: "Lessons for children run every Saturday morning." },
    ]);
    expect(rank("what are the opening hours on christmas eve", pool).articles[0]?.passage).toStartWith("Holidays");
  });

  test("asked only what the article's title names, its opening is shown, not the passage naming the words in passing (and, controls, a word only a later passage holds, a price, the title's later subject choose theirs)", () => {
    // A bed-and-breakfast's articles as its operator wrote them (a walkthrough).
    const bnb = new MemorySource([
      {
        id: "parking",
        title: "Parking",
        keywords: "parking\u001fcar park\u001fcar",
        body: "We have 4 off-street spaces behind the house. They are free for guests, first come first served, and cannot be reserved.\n\nIf they are full, the street outside is a pay-and-display permit zone: Mon–Sat 8.30am–5.30pm, £3.20 an hour, free on Sundays and after 5.30pm.\n\nThe nearest multi-storey is Castle Terrace car park, about £30 per 24 hours.\n\nThere is no electric car charger at the house; the nearest public charger is on Lauriston Place.",
      },
      {
        id: "castle",
        title: "Walking to the Castle and the Royal Mile",
        keywords: "castle\u001froyal mile\u001fold town",
        body: "Edinburgh Castle is a 15-minute walk (1.2 km) from us: up Lauriston Place and through the Grassmarket.\n\nThe Royal Mile is 20 minutes on foot, Princes Street 10 minutes, Arthur's Seat about 40 minutes.\n\nCastle tickets are from £21.50 if bought online; book ahead in summer as they sell out.",
      },
      { id: "breakfast", title: "Breakfast", keywords: "breakfast", body: "Breakfast is served 7.30–9.30 in the dining room, £12 for non-residents." },
    ]);
    const first = (text: string) => rank(text, bnb).articles[0];
    expect(first("is there parking")?.id).toBe("parking");
    expect(first("is there parking")?.passage).toStartWith("We have 4 off-street spaces");
    expect(first("how far to the castle")?.id).toBe("castle");
    expect(first("how far to the castle")?.passage).toStartWith("Edinburgh Castle is a 15-minute walk");
    // A word the head does not hold chooses the passage that holds it.
    expect(first("is there an electric charger for parking")?.passage).toStartWith("There is no electric car charger");
    // Controls: asked what it costs, the passage with a price; a later subject of the title ("the Royal Mile"), its own passage.
    expect(first("how much are castle tickets")?.passage).toStartWith("Castle tickets are from £21.50");
    expect(first("how far is the royal mile")?.passage).toStartWith("The Royal Mile is 20 minutes");
  });

  test("the opening is shown for the title's first subject only, not for a later one or for words the keywords or taught questions hold: each has a passage of its own", () => {
    const islands = new MemorySource([
      {
        id: "islands",
        title: "Delivery to Northern Ireland and the Channel Islands",
        keywords: "jersey\u001fguernsey\u001fhighlands",
        questions: "do you deliver to jersey",
        body:
          "Northern Ireland: standard delivery to Northern Ireland costs £5.95 and takes 4 to 6 working days. Orders over £50 to Northern Ireland are delivered free of charge by our usual courier, with tracking from the day they leave.\n\n" +
          "Jersey and Guernsey: delivery to the Channel Islands costs £9.95 and takes 5 to 8 working days, as parcels go by sea. Customs forms are filled in by us; no duty is charged on orders under £135 sent there.\n\n" +
          "The Highlands and islands of Scotland: delivery costs £7.95 and takes 3 to 5 working days. Some remote postcodes take a day or two longer in winter weather, and large items go by pallet.",
      },
      { id: "returns", title: "Returns", keywords: "", body: "Send anything back within 30 days for a full refund." },
    ]);
    const passage = (text: string) => rank(text, islands).articles[0]?.passage;
    // Each paragraph a passage of its own (passages.ts): the choice is of passages, not of sentences in one.
    expect(rank("delivery", islands).articles[0]?.passages.length).toBe(3);
    expect(passage("do you deliver to northern ireland")).toStartWith("Northern Ireland:");
    expect(passage("delivery to the channel islands")).toStartWith("Jersey and Guernsey");
    expect(passage("delivery to jersey")).toStartWith("Jersey and Guernsey");
    expect(passage("do you deliver to jersey")).toStartWith("Jersey and Guernsey");
    expect(passage("highlands delivery")).toStartWith("The Highlands");
  });

  test("asked only what the title names of an article the ranking reads as one passage, the card starts at its opening, not at the sentence holding most of the words; another word still chooses its sentence", () => {
    // A grocery's walkthrough: 怎么开发票 of 开发票 had been shown "优惠券、会员卡抵扣部分不开发票。", the one sentence holding 开发.
    const shop = new MemorySource([
      {
        id: "invoice",
        title: "开发票",
        keywords: "发票\u001f开票",
        body: "订单完成（已取货）后30天内可以申请电子发票：小程序“订单”—订单详情—“申请开票”，填写抬头和税号。\n\n目前只开具增值税普通电子发票，暂不支持专票。\n\n优惠券、会员卡抵扣部分不开发票。",
      },
      { id: "refund", title: "退款", keywords: "", body: "缺货商品当天自动退款，原路退回。" },
    ]);
    const first = (text: string) => rank(text, shop).articles[0];
    expect(first("怎么开发票")?.passages.length).toBe(1);
    expect(first("怎么开发票")?.passage).toStartWith("订单完成（已取货）后30天内可以申请电子发票");
    expect(first("怎么开发票")?.excerpt).toStartWith("订单完成");
    expect(first("能开专票吗")?.passage).toStartWith("目前只开具增值税普通电子发票，暂不支持专票。");
  });

  test("of an article of several passages, the lead passage's sentence naming the words starts a list entry, not the passage's preamble (a review)", () => {
    const theatre = new MemorySource([
      {
        id: "parking",
        title: "Parking",
        keywords: "car park",
        body:
          "Welcome to the Lyric Theatre, a registered charity in the heart of the old town since 1902, with three stages and a café bar open every day from ten in the morning. Parking is in the Market Street multi-storey behind the theatre, £2 after 6pm with a stamped ticket from the box office.\n\n" +
          "Blue badge holders can park in the four bays on Church Lane at the stage door, free of charge at any time; ring the stage door bell and a steward will bring you round.\n\n" +
          "Coaches drop off on Bridge Street and park at the council depot on the ring road; tell us the coach's registration when you book a group so the depot expects it.",
      },
      { id: "bar", title: "Bar and café", keywords: "", body: "The café bar is open from 10am; pre-order interval drinks at the bar." },
    ]);
    const a = rank("parking", theatre).articles[0];
    expect(a?.passages.length).toBeGreaterThan(1);
    expect(a?.excerpt).toStartWith("…Parking is in the Market Street multi-storey");
  });
});

test(`asked how much, a passage with a price is shown unless the best scores ${PRICE_FAR} times it; however far below when the article's title names a price`, () => {
  // Two passages holding the question's word: the first (no price) of the average length, the second (a price) longer.
  const best = passageScore(q, new Map([["导出", 1]]), stats.passageLen, stats.passageLen);
  let len = stats.passageLen;
  while (passageScore(q, new Map([["导出", 1]]), len, stats.passageLen) * PRICE_FAR >= best) len++;
  const shown = (priceLen: number, titled: boolean) => shownPassage(q, [cut(0, stats.passageLen), cut(100, priceLen)], stats, { holds: (p) => p.start === 100, titled })?.start;
  expect({ under: shown(len - 1, false), past: shown(len, false), titled: shown(len, true) }).toEqual({ under: 100, past: 0, titled: 100 });
});

test("a title names a price by a word of one (阶梯水价, 收费标准, 学费, ticket prices), not by a character saying money in other words (贵宾厅, 评价, 钱包, 免费, 消费)", () => {
  for (const title of ["阶梯水价", "收费标准", "小班学费", "Ticket prices", "Parking fees", "價格表", "特价商品"]) expect({ title, priced: titledPrice(title) }).toEqual({ title, priced: true });
  for (const title of ["贵宾厅服务", "会员评价规则", "钱包充值说明", "免费WiFi使用说明", "消费记录查询", "Opening hours", "价值观"]) expect({ title, priced: titledPrice(title) }).toEqual({ title, priced: false });
});

test("'水费一吨多少钱' of a water company's price article (titled 阶梯水价) shows the prices per tonne, not '一立方米就是一吨水' (a walkthrough)", () => {
  const water = JSON.parse(readFileSync(join(import.meta.dir, "fixtures/water-utility.json"), "utf8")) as { articles: { id: string; title: string; keywords: string[]; body: string }[] };
  const source = new MemorySource(water.articles.map((a) => ({ ...a, keywords: a.keywords.join("\u001f") })));
  expect(rank("水费一吨多少钱", source).articles[0]).toMatchObject({ id: "shuijia", passage: expect.stringContaining("3.45元/立方米") });
});

describe("an article's description", () => {
  // A pet hospital's walkthrough: its description named every branch, and run into the body's opening it made
  // that opening the passage shown for any branch — 成华店地址 showed 总院's and 高新's addresses.
  const stores = {
    id: "stores",
    title: "四家门店地址和电话",
    keywords: "地址\u001f门店",
    description: "总院、高新、锦江、成华四家门店的地址、电话和乘车路线",
    body: "宠爱宠物医院在成都共有四家门店，均可看诊、打疫苗、做绝育手术。\n\n总院（武侯店）：武侯区武侯祠大街88号，电话 028-8555-1001。地铁3号线高升桥站C口出步行约8分钟。\n\n高新分院：高新区天府三街199号，电话 028-8555-1002。地铁1号线天府三街站B口出步行约5分钟。\n\n成华分院：成华区建设路12号（建设巷路口），电话 028-8555-1004。地铁8号线建设路站出步行约3分钟。",
  };
  const hours = { id: "hours", title: "营业时间", keywords: "", description: "", body: "门诊时间：四家门店每天 9:00-21:00 接诊。" };
  const shownFor = (question: string, source = new MemorySource([stores, hours])) => rank(question, source).articles.find((a) => a.id === "stores")?.passage ?? null;
  test("takes no part in choosing the passage shown: the body's words choose", () => {
    expect(shownFor("成华店地址")).toStartWith("成华分院：成华区建设路12号");
    expect(shownFor("高新分院电话多少")).toStartWith("高新分院：高新区天府三街199号");
  });
  test("the opening it runs into is shown as before when only it, or only the title, holds the question's words", () => {
    // 乘车 only the description says; 门店地址 only the title: the opening, the description with it (a review: the description alone had been shown, no address in it).
    for (const q of ["怎么乘车", "门店地址"]) expect(shownFor(q)).toStartWith(`${stores.description}\n宠爱宠物医院在成都共有四家门店`);
  });
  test("an article without one is shown as before", () => {
    expect(shownFor("成华店地址", new MemorySource([{ ...stores, description: "" }, hours]))).toStartWith("成华分院");
  });
});
