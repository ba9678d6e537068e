import { numberedCodeClash } from "./numbered-clash.ts";
import { CONTENT, LONG_FIELDS } from "../article/fields.ts";
import { articleJson, CONTENT_FIELDS, contentOf, LIMITS, sameContent, validateArticle, type Article } from "../article/article.ts";
import { bodyReducedAhead, KeptBodies, readDocumentSliced } from "../doc/bodies.ts";
import { badRequest, InvalidDocumentError, notFound, ReplydError, tooLarge } from "../base/errors.ts";
import { newArticleId } from "../store/ids.ts";
import { taughtElsewhereWarnings } from "./taught-elsewhere.ts";
import { accountWarnings, deletedWarnings, keptQuestionsWarnings, keptRulesWarnings, undescribedTagWarnings, ruleWarnings, tagWarnings, toldCodes, toldCodeWarnings, wordlessQuestionWarnings, wordlessSynonymWarnings, wordlessKeywordWarnings, WORDLESS_SCAN_MAX, leaningQuestionWarnings } from "./write-warnings.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { Fields } from "./fields.ts";
import { mediaUrl } from "../store/media.ts";
import { appendedFields, appendTo, removeFrom } from "./append.ts";
import { beforeTeaching, movedFrom, movedJson, movedTo, TEACH_MOVES } from "./teach-moves.ts";
import { health } from "./health.ts";
import { inbox } from "./inbox.ts";
import { idHint } from "./id-hint.ts";

const FORM_FIELDS = ["id", ...CONTENT_FIELDS] as const;
/** Each word of q= is a condition over four columns: SQLite refuses expression trees past ~1,000 terms. */
export const MAX_QUERY_WORDS = 32;

/** GET /api/cli: health, or with id/code/tag/q the articles. */
export async function getCli(ctx: AppContext, req: SignedRequest) {
  const f = new Fields(req.fields).only(["id", "code", "tag", "q", "deleted", "limit", "offset", "inbox"]);
  if (f.has("inbox")) {
    // Followers' own words: an admin key's to read, not a read key's (docs/protocol.md "Scopes").
    if (req.key.scope !== "admin") throw new ReplydError("forbidden", `the key "${req.key.appkey}" is read-only; followers' messages (inbox) need an admin key`);
    return inbox(ctx, f);
  }
  if (f.has("id")) {
    const a = ctx.read.articles.get(f.require("id"));
    if (!a) throw notFound(`no article with id "${f.get("id")}"${idHint(f.require("id"), ctx.read.articles)}`);
    return articleJson(a);
  }
  if (f.has("code") && !f.has("tag") && !f.has("q")) {
    const a = ctx.read.articles.getLiveByCode(f.require("code"));
    if (!a) throw notFound(`no live article with code "${f.get("code")}"`);
    return articleJson(a);
  }
  if (f.has("tag") || f.has("q")) {
    const words = (f.get("q") ?? "").split(/\s+/).filter(Boolean).length;
    if (words > MAX_QUERY_WORDS) throw badRequest(`q may hold at most ${MAX_QUERY_WORDS} words (it has ${words})`, "too_many_words");
    const deleted = f.get("deleted") ?? "live";
    if (deleted !== "live" && deleted !== "all" && deleted !== "only") throw badRequest('"deleted" must be live, all or only');
    const limit = f.int("limit", 1, 1000, 100);
    const offset = f.int("offset", 0, Number.MAX_SAFE_INTEGER, 0);
    const { items, total } = ctx.read.articles.list({
      ...(f.get("tag") ? { tag: f.get("tag") } : {}),
      ...(f.get("q") ? { q: f.get("q") } : {}),
      ...(f.get("code") ? { code: f.get("code") } : {}),
      deleted,
      limit,
      offset,
    });
    return { items: items.map(articleJson), total, limit, offset };
  }
  if (f.names().length) throw badRequest("deleted, limit and offset go with tag= or q= (q= with no words lists everything)");
  return health(ctx, req);
}

/** The long fields sent as file parts (`body`), as text; any other part is refused. */
function longParts(req: SignedRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, part] of req.files) {
    if (!(LONG_FIELDS as readonly string[]).includes(name)) throw badRequest(`unexpected file part: ${name}; one article takes its ${LONG_FIELDS.join(", ")} as a part, the rest as form fields`);
    if (part.size > LIMITS.bodyPart) throw tooLarge(`the ${name} part may hold at most ${LIMITS.bodyPart} bytes (the ${name} kept, its HTML reduced, at most ${LIMITS.body})`);
    try {
      out.set(name, new TextDecoder("utf-8", { fatal: true }).decode(part.bytes()));
    } catch {
      throw badRequest(`the ${name} part is not UTF-8 text`);
    }
  }
  return out;
}

/**
 * Turns form fields (and long fields' parts) into an article record, each content field by its kind:
 * words comma-separated (questions, which may hold commas, one a line), a flag as 0/1.
 */
function recordFromForm(f: Fields, parts: Map<string, string>): Record<string, unknown> {
  const rec: Record<string, unknown> = {};
  const id = f.get("id");
  if (id !== undefined) rec.id = id;
  for (const field of CONTENT) {
    if (field.kind === "flag") {
      const v = f.bool(field.name);
      if (v !== undefined) rec[field.name] = v;
      continue;
    }
    const v = parts.get(field.name) ?? f.get(field.name);
    if (v === undefined) continue;
    rec[field.name] =
      field.kind === "words"
        ? v
            // Keywords by commas: full-width and the enumeration comma too, as Chinese is typed (猫咪寄养，狗狗寄养、寄养).
            .split("lines" in field && field.lines ? /\r?\n/ : /[,，、]/)
            .map((w) => w.trim())
            .filter(Boolean)
        : v;
  }
  return rec;
}

export function invalidArticle(problems: InvalidDocumentError["problems"], headline = "the article is invalid; nothing was written") {
  const e = new InvalidDocumentError(problems, headline);
  return new ReplydError("invalid_article", e.message, e.details);
}

/** POST /api/cli: a `json` file part is a bulk import; a `media` part an image upload; plain fields add one article. */
export async function postCli(ctx: AppContext, req: SignedRequest) {
  const image = req.files.get("media");
  if (image) {
    new Fields(req.fields).only(["media"]);
    if (req.files.size > 1) throw badRequest("send one file part: media or json");
    // Never from the request's Host header: it is not signed.
    const stored = await ctx.write.storeMedia(image.bytes(), ctx.maxMedia);
    // public: whether the URL is --public-url's, which followers' phones can load, or the listening address.
    return { name: stored.name, url: mediaUrl(ctx.publicUrl(), ctx.mediaPrefix + stored.name), type: stored.type, size: stored.size, existed: stored.existed, public: ctx.publicUrlGiven };
  }
  const file = req.files.get("json");
  if (file) {
    const f = new Fields(req.fields).only(["mode", "questions", "json"]);
    const mode = f.get("mode") ?? "merge";
    if (mode !== "merge" && mode !== "init") throw badRequest('"mode" must be merge or init');
    // What a record listing questions does to those the article holds that it does not list (store/writer.ts ImportOptions).
    const questions = f.get("questions") ?? "keep";
    if (questions !== "keep" && questions !== "replace") throw badRequest('"questions" must be keep or replace');
    const unexpected = [...req.files.keys()].filter((k) => k !== "json");
    if (unexpected.length) throw badRequest(`unexpected file part: ${unexpected.join(", ")}`);
    // Its bodies reduced a slice at a time, once: the write reads them back (doc/bodies.ts).
    const bodies = new KeptBodies(ctx.read.spoolDir);
    try {
      const doc = await readDocumentSliced(file.source(), bodies);
      const told = toldCodes(ctx);
      const result = await ctx.write.importDocument(doc, mode, { replaceQuestions: questions === "replace" });
      // The document may have named articles or tags that are not there, or removed some that rules name or the welcome tells followers to send.
      return { mode, ...result, warnings: [...keptQuestionsWarnings(result.questions_kept), ...(mode === "merge" ? keptRulesWarnings(ctx, doc.rules) : []), ...accountWarnings(ctx, doc.account, "imported"), ...ruleWarnings(ctx), ...tagWarnings(ctx), ...(doc.articles ? undescribedTagWarnings(ctx) : []), ...toldCodeWarnings(ctx, told), ...(doc.articles || doc.texts ? numberedCodeClash(ctx) : []), ...wordlessSynonymWarnings(doc.synonyms), ...(doc.articles && doc.articles.count <= WORDLESS_SCAN_MAX ? wordlessKeywordWarnings(doc.articles.values()) : [])] };
    } finally {
      bodies.close();
    }
  }
  const parts = longParts(req);
  const f = new Fields(req.fields).only(FORM_FIELDS);
  const rec = recordFromForm(f, parts);
  const { value, problems } = validateArticle(rec, { reduce: await bodyReducedAhead(rec.body) });
  if (!value) throw invalidArticle(problems);
  const content = contentOf(value);
  // A new id is made against the read model; the writer refuses one taken meanwhile (id_exists).
  const id = value.id ?? newArticleId(content.code, { has: (taken) => ctx.read.articles.exists(taken) });
  const now = new Date(ctx.clock.now()).toISOString();
  const article: Article = { id, ...content, rev: 1, created_at: now, updated_at: now };
  // Which recent questions it now comes first for, as set … questions+= and teach say: an operator
  // adding the article the inbox lacked had been told nothing of what it answers (a B&B's walkthrough).
  // Not for an id taken: the write refuses it, and the questions would be asked again for nothing (a review).
  const before = ctx.read.articles.exists(id) ? null : await beforeTeaching(ctx, "", []);
  const r = await ctx.write.editArticle(id, { onlyIfNew: true, decide: () => article });
  const gained = before === null || r.article.deleted ? null : await movedTo(ctx, r.article.id, before);
  // As stored: an id used before continues above its old revs.
  return { created: true, article: articleJson(r.article), ...(gained ? movedJson(gained) : {}), ...(await articleWarnings(ctx, r.article, r.article.questions)) };
}

/**
 * PUT /api/cli: revise the fields sent; `rev` makes it conditional; `append` names lists added to
 * rather than replaced (append.ts); an unknown id creates the article.
 */
export async function putCli(ctx: AppContext, req: SignedRequest) {
  const parts = longParts(req);
  const f = new Fields(req.fields).only([...FORM_FIELDS, "rev", "append", "remove", "create"]);
  const id = f.require("id");
  // create=0 (the client's set): a revision only — a mistyped id is never made into a new article.
  const create = f.bool("create") ?? true;
  const append = appendedFields(f.get("append"), (name) => f.has(name));
  const remove = appendedFields(f.get("remove"), (name) => f.has(name), "remove");
  const both = append.filter((n) => remove.includes(n));
  if (both.length) throw badRequest(`${both.join(", ")} named in both "append" and "remove": one or the other`);
  const rev = f.has("rev") ? f.int("rev", 1, Number.MAX_SAFE_INTEGER, 0) : undefined;
  const rec = recordFromForm(f, parts);
  const reduce = await bodyReducedAhead(rec.body);
  // Checked as a revision (what is sent must be valid) and, when there is no such article, as a new one.
  const revision = validateArticle(rec, { partial: true, reduce });
  // Refused whole: with every problem a new article would have, when there is none to revise.
  if (!revision.value) throw invalidArticle(ctx.read.articles.exists(id) || !create ? revision.problems : validateArticle(rec, { reduce }).problems);
  const { id: _id, rev: _rev, created_at: _c, updated_at: _u, ...changes } = revision.value;
  const now = new Date(ctx.clock.now()).toISOString();
  // Taking a question or keyword from a live article: which of the followers' recent questions it came first for, to say which it no longer does.
  // Not when this server's copy holds none of it: the writer refuses it, and the questions were asked again for nothing (a review).
  const live = ctx.read.articles.get(id);
  const taking = remove.length > 0 && live?.deleted === false && !("problems" in removeFrom(contentOf(live), changes, remove));
  // Adding one (questions+=, keywords+=): which it comes first for now, as a teach says — a keyword
  // added had taken "入住要带什么东西" from the article answering it, unsaid (a postpartum centre's walkthrough).
  // Not when the addition would be refused (past a list's limit): nothing to ask again for (a review).
  const adding = append.length > 0 && live?.deleted === false && !("problems" in appendTo(contentOf(live), changes, append));
  const before = taking || adding ? await beforeTeaching(ctx, "", []) : null;
  // The questions it held: those it holds after that are new, to check against the other articles.
  const held = live?.questions ?? [];
  // Decided by the writer against the article as the store of record holds it, not as this server last read it.
  const r = await ctx.write.editArticle(id, {
    ...(rev !== undefined ? { expectRev: rev } : {}),
    decide: (stored) => {
      if (!stored) {
        if (remove.length) throw notFound(`no article "${id}" to take ${remove.join(" and ")} from${idHint(id, ctx.read.articles)}`);
        if (!create) throw notFound(`no article "${id}"${idHint(id, ctx.read.articles)}: replyd set revises an article that exists; replyd add makes one (replyd ls lists them; one purged is back only by restoring a backup that holds it)`);
        const { value, problems } = validateArticle(rec, { reduce });
        if (!value) throw invalidArticle(problems);
        return { id, ...contentOf(value), rev: 1, created_at: now, updated_at: now };
      }
      const added = append.length ? appendTo(contentOf(stored), changes, append) : { value: changes };
      if ("problems" in added) throw invalidArticle(added.problems);
      const taken = remove.length ? removeFrom(contentOf(stored), added.value, remove) : added;
      // Said as what it is: the article is as valid as before (a salon's operator read "the article is invalid").
      if ("problems" in taken) throw invalidArticle(taken.problems, "the article does not hold what was to be taken from it; nothing was written");
      const next = { ...contentOf(stored), ...taken.value };
      if (sameContent(contentOf(stored), next)) return null;
      return { ...stored, ...next, rev: stored.rev + 1, updated_at: now };
    },
  });
  const left = before && taking && r.changed ? await movedFrom(ctx, id, before) : null;
  const gained = before && adding && r.changed ? await movedTo(ctx, id, before) : null;
  return {
    created: r.created,
    changed: r.changed,
    article: articleJson(r.article),
    ...(left ? { moved_from: left.slice(0, TEACH_MOVES.listed), moved_from_count: left.length } : {}),
    ...(gained ? movedJson(gained) : {}),
    ...(await articleWarnings(ctx, r.article, r.changed ? r.article.questions.filter((q) => !held.includes(q)) : [])),
  };
}

/**
 * A tag this article's tag or code leaves followers unable to have listed, questions it holds that
 * find it for nobody (write-warnings.ts), and of the questions `added`, those another article
 * answers already (taught-elsewhere.ts).
 */
async function articleWarnings(ctx: AppContext, a: Article, added: readonly string[]): Promise<{ warnings?: string[] }> {
  const warnings = [...tagWarnings(ctx, [a.tag, a.code]), ...wordlessQuestionWarnings(a), ...wordlessKeywordWarnings([a]), ...leaningQuestionWarnings(a), ...(a.deleted ? [] : await taughtElsewhereWarnings(ctx, a.id, added))];
  return warnings.length ? { warnings } : {};
}

/** DELETE /api/cli?id=: soft delete (restorable with PUT deleted=0), or purge=1 for good. */
export async function deleteCli(ctx: AppContext, req: SignedRequest) {
  const f = new Fields(req.fields).only(["id", "purge"]);
  const id = f.require("id");
  // A code named for an id ("replyd rm 3"): said, never taken for it — a delete by a mistyped code would remove another article.
  const gone = () => notFound(`no article with id "${id}"${idHint(id, ctx.read.articles, "replyd rm")}`);
  const said = (a: Pick<Article, "id" | "code" | "tag"> | null) => {
    const warnings = a ? deletedWarnings(ctx, a) : [];
    return warnings.length ? { warnings } : {};
  };
  if (f.bool("purge")) {
    const before = ctx.read.articles.get(id);
    if (!(await ctx.write.purgeArticle(id))) throw gone();
    return { purged: true, id, ...said(before && !before.deleted ? before : null) };
  }
  const r = await ctx.write.editArticle(id, {
    decide: (stored) => {
      if (!stored) throw gone();
      return stored.deleted ? null : { ...stored, deleted: true, rev: stored.rev + 1, updated_at: new Date(ctx.clock.now()).toISOString() };
    },
  });
  return { purged: false, changed: r.changed, article: articleJson(r.article), ...said(r.changed ? r.article : null) };
}
