/**
 * Lists appended to or taken from rather than replaced: `PUT /api/cli` with `append=keywords,questions`
 * (what `replyd set ID questions+=…` sends) or `remove=…` (`questions-=…`). The items sent go after the article's own, those it holds
 * already skipped (keywords in any case, questions as a follower's message meets them: heldItem,
 * below), decided in the writer's transaction against the article as stored: two operators
 * appending at once both keep theirs, and a list never ends with an item twice.
 */
import { CONTENT, type ArticleContent } from "../article/fields.ts";
import { taughtForm } from "../ranking/taught-form.ts";
import { badRequest, type Problem } from "../base/errors.ts";

/** The list fields (keywords, questions): what `append=` may name. */
export const LIST_FIELDS: readonly string[] = CONTENT.filter((f) => f.kind === "words").map((f) => f.name);

/** The fields `append=` (or `remove=`) names (comma-separated), each a list field the request sends; none without it. */
export function appendedFields(value: string | undefined, sent: (name: string) => boolean, param: "append" | "remove" = "append"): string[] {
  if (value === undefined) return [];
  const names = [...new Set(value.split(",").map((n) => n.trim()).filter(Boolean))];
  const does = param === "append" ? "are added to" : "are taken from";
  if (!names.length) throw badRequest(`"${param}" names the list fields whose values ${does} the article's (${LIST_FIELDS.join(", ")}); it is empty`);
  for (const name of names) {
    if (!LIST_FIELDS.includes(name)) throw badRequest(`"${param}" names list fields (${LIST_FIELDS.join(", ")}); "${name.slice(0, 64)}" is not one`);
    if (!sent(name)) throw badRequest(`"${param}" names ${name}, but no ${name}= was sent`);
  }
  return names;
}

type Edited = { value: Partial<ArticleContent> } | { problems: Problem[] };

/**
 * `changes` with each list named in `names` made from the stored one by `edit` (the items sent,
 * the list as stored): a problem from any list, and nothing is written.
 */
function editLists(stored: ArticleContent, changes: Partial<ArticleContent>, names: readonly string[], edit: (f: (typeof CONTENT)[number], sent: readonly string[], list: string[]) => Problem[]): Edited {
  const out: Record<string, unknown> = { ...changes };
  const problems: Problem[] = [];
  for (const f of CONTENT) {
    if (!names.includes(f.name)) continue;
    const list = [...(stored[f.name] as string[])];
    const found = edit(f, (changes[f.name] as string[] | undefined) ?? [], list);
    if (found.length) problems.push(...found);
    else out[f.name] = list;
  }
  return problems.length ? { problems } : { value: out as Partial<ArticleContent> };
}

/**
 * `changes` with each list named in `names` appended to the stored one: the items it holds skipped,
 * and the whole list checked again by its field's own check (its limit: 32 keywords, 50 questions).
 */
export const appendTo = (stored: ArticleContent, changes: Partial<ArticleContent>, names: readonly string[]): Edited =>
  editLists(stored, changes, names, (f, sent, list) => {
    const held = list.length;
    const holding = new HeldItems(f.name, list);
    for (const item of sent)
      if (holding.find(item) === undefined) {
        list.push(item);
        holding.add(item);
      }
    const checked = f.check(list);
    if ("problem" in checked) return [{ field: f.name, reason: `${checked.problem}, once the ${sent.length} sent are added to the article's ${held}` }];
    list.splice(0, list.length, ...(checked.value as string[]));
    return [];
  });

/**
 * `changes` with each list named in `names` being the stored one without the items sent (a taught
 * question undone: `replyd set ID questions-=…`), each as heldItem finds it; an item the article
 * does not hold is a problem, and nothing is written — a mistyped question is said, not ignored.
 */
export const removeFrom = (stored: ArticleContent, changes: Partial<ArticleContent>, names: readonly string[]): Edited =>
  editLists(stored, changes, names, (f, sent, list) => {
    const problems: Problem[] = [];
    const holds = list.length ? `it holds: ${list.slice(0, 5).map((x) => `"${x.slice(0, 40)}"`).join(", ")}${list.length > 5 ? ", …" : ""}` : "none";
    const holding = new HeldItems(f.name, list);
    for (const item of sent) {
      const held = holding.find(item);
      if (held === undefined) problems.push({ field: f.name, reason: `the article holds no ${f.name === "questions" ? "question" : "keyword"} "${item.slice(0, 64)}" (${holds})` });
      else {
        list.splice(list.indexOf(held), 1);
        holding.remove(held);
      }
    }
    return problems;
  });

/**
 * The item of a list (keywords, questions) that is `item` already, or undefined: an item appended
 * (`set ID questions+=…`, `replyd teach`) that it holds is not added again. Keywords are the same
 * in any case; questions as a follower's message meets them (ranking/taught-form.ts: "How much
 * deposit??" is "how much deposit" taught already).
 */
export const heldItem = (field: string, list: readonly string[], item: string): string | undefined => new HeldItems(field, list).find(item);

/**
 * A list's items by their form, each read once (a review: every item sent had read every stored
 * question's form again, 50 by 50 twice a request, 0.9 s). The item written as sent comes before
 * one of its form ("-=how much deposit" takes that one, not "How much deposit??" listed before it).
 * A question of marks or emoji alone has no taught form ("👍", "???"): it is itself, in any case —
 * not every other such question ("-=!!!" had taken the 👍).
 */
class HeldItems {
  private readonly byForm = new Map<string, string[]>();
  constructor(
    private readonly field: string,
    list: readonly string[],
  ) {
    for (const x of list) this.add(x);
  }

  private form(x: string): string {
    if (this.field !== "questions") return x.toLowerCase();
    return taughtForm(x) || `=${x.trim().toLowerCase()}`;
  }

  add(x: string): void {
    const k = this.form(x);
    const items = this.byForm.get(k);
    if (items) items.push(x);
    else this.byForm.set(k, [x]);
  }

  remove(x: string): void {
    const items = this.byForm.get(this.form(x));
    const at = items?.indexOf(x) ?? -1;
    if (items && at >= 0) items.splice(at, 1);
  }

  find(item: string): string | undefined {
    const items = this.byForm.get(this.form(item));
    return items?.includes(item) ? item : items?.[0];
  }
}
