/**
 * The names spreadsheets give an article's fields other than the document's own (docs/data.md "From a
 * spreadsheet"): a CSV's columns are read as the field they name; a JSON document's keys so named are
 * refused, naming the field meant ("link": did you mean url? — a football club's operator had "unknown
 * field" alone for the names the CSV took: a walkthrough, Session 52).
 */
/**
 * Column names a Chinese spreadsheet gives the fields (a walkthrough's operator headed the sheet
 * 标题, 正文, 关键词 … and had every column refused): read as the field. Taiwan's words too: 連結 for
 * 链接 (a Taiwanese bookstore's sheet had its link column refused), 標籤, 內容 (folded as simplified).
 */
export const CHINESE_COLUMNS: Record<string, string> = {
  编号: "id", 标识: "id", 代码: "code", 编码: "code", 回复码: "code", 标签: "tag", 分类: "tag", 标题: "title", 描述: "description", 摘要: "description", 简介: "description",
  链接: "url", 网址: "url", 链接地址: "url", 连结: "url", 连结网址: "url", 超链接: "url", 图片: "picurl", 封面: "picurl", 封面图: "picurl", 关键词: "keywords", 关键字: "keywords", 问题: "questions", 问法: "questions", 相似问题: "questions",
  正文: "body", 内容: "body", 答案: "body", 回答: "body", 已删除: "deleted", 删除: "deleted",
};
/**
 * English names a sheet gives the fields other than theirs: "link" and "question" (a letting
 * agency's sheet had its link column refused, the Chinese 链接 accepted: a walkthrough, Session 51).
 */
export const ENGLISH_COLUMNS: Record<string, string> = {
  link: "url", links: "url", image: "picurl", picture: "picurl", keyword: "keywords", question: "questions", answer: "body", content: "body",
  // A help centre's export (Zendesk's html_url, label_names, section; a bookkeeping app's operator had
  // 124 problems from one, "html_url: unknown field" with no hint: a walkthrough).
  html_url: "url", labels: "keywords", label_names: "keywords", tags: "keywords", body_html: "body", html: "body", name: "title", summary: "description", excerpt: "description", section: "tag", category: "tag",
  // Its "draft" (true: not published) as deleted: a draft is no answer (a theatre's walkthrough had the column refused).
  draft: "deleted",
};
/**
 * The traditional characters of these names, as simplified: a CSV's header is folded by the ranking's
 * table before it is looked up (cli/csv.ts), a JSON document's key here, below the ranking (連結,
 * 內容 and 標籤 had been told "did you mean id?": a review).
 */
const TRADITIONAL = new Map([..."連连內内標标籤签題题關关鍵键詞词圖图網网問问覆复編编碼码簡简刪删類类鏈链結结"].flatMap((c, i, all) => (i % 2 ? [] : [[c, all[i + 1] as string] as const])));
const simplified = (s: string) => [...s].map((c) => TRADITIONAL.get(c) ?? c).join("");

/** The field a spreadsheet's name for it stands for ("link", "content", 链接, 正文, 連結, ｌｉｎｋ), if it is one. */
export const fieldNamed = (name: string): string | undefined => {
  const n = simplified(name.normalize("NFKC").trim().toLowerCase());
  return Object.hasOwn(ENGLISH_COLUMNS, n) ? ENGLISH_COLUMNS[n] : Object.hasOwn(CHINESE_COLUMNS, n) ? CHINESE_COLUMNS[n] : undefined;
};
