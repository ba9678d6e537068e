#!/usr/bin/env python3
"""Build and verify the zh evaluation labels.

    python3 build.py            # write questions.jsonl + followups.jsonl, then verify them
    python3 build.py --selftest # also show that deliberate breaks are caught

Labels are made from the article BODIES in ../zh/accounts/*.json; the writer's
intent in ../zh-writer/*.jsonl is only a hint (overrides are listed in NOTES.md).
"""
import copy
import json
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ACCOUNTS_DIR = os.path.join(ROOT, "zh", "accounts")
DRAFT = os.path.join(ROOT, "zh-writer", "draft-zh.jsonl")
CONVS = os.path.join(ROOT, "zh-writer", "conversations-zh.jsonl")
OUT_Q = os.path.join(HERE, "questions.jsonl")
OUT_F = os.path.join(HERE, "followups.jsonl")

R, C, U = "zh-rail-canglan", "zh-coffee-heyu", "zh-univ-lanjiang"
A, N, CH = "answerable", "unanswerable", "chat"

# ---------------------------------------------------------------------------
# 1. Question labels: (draft line no., start of question text, kind, [ids])
#    The text prefix is only an alignment guard; output text is copied verbatim
#    from the draft.
# ---------------------------------------------------------------------------
QUESTIONS = [
    # --- zh-rail-canglan ---
    (1, "怎么退票", A, ["refund"]),
    (2, "改签收费吗", A, ["rebook"]),
    (3, "学生票", A, ["student-ticket"]),
    (4, "儿童票咋买", A, ["child-ticket"]),
    (5, "能带宠物吗", A, ["pets"]),
    (6, "候补靠谱吗", A, ["waitlist"]),
    (7, "报销凭证", A, ["reimbursement"]),
    (8, "停车费多少", N, []),
    (9, "车票开了还能改签不", A, ["missed-train", "rebook"]),
    (10, "没赶上车", A, ["missed-train"]),
    (11, "充电宝能带上车吗", A, ["prohibited-items"]),        # 20000mAh ~ 74Wh < 100Wh
    (12, "东西落车上了", A, ["lost-on-train"]),
    (13, "替我爸妈买票", A, ["passenger-list"]),               # hard call
    (14, "列车晚点了 退票", A, ["delay-refund"]),
    (15, "云津站出来怎么坐地铁", N, []),
    (16, "接站能进站台接吗", N, []),
    (17, "外国朋友用护照", A, ["real-name-id"]),               # hard call
    (18, "车票该签了还能退吗", A, ["rebook", "refund"]),
    (19, "xs票资质核验", A, ["student-verification"]),
    (20, "车厢空调太冷了", N, []),
    (21, "我在栖州站上车", A, ["rebook"]),
    (22, "我妈第一次一个人坐火车", A, ["priority-passenger", "e-ticket-entry"]),
    (23, "带两个孩子回老家", A, ["child-ticket", "child-passenger"]),
    (24, "昨天坐车从云津到栖州", A, ["lost-on-train", "lost-and-found"]),
    (25, "寒假想提前回家", N, []),                              # hard call
    (26, "前面一趟车晚点了", A, ["delay-refund"]),
    (27, "公司要报销", A, ["reimbursement"]),
    (28, "身份证丢了", A, ["id-lost"]),
    (29, "我爸腿脚不好", A, ["priority-passenger"]),
    (30, "我替同事买的票", A, ["passenger-list"]),             # hard call
    (31, "下个月云津到梧原", N, []),
    (32, "昨天下午那趟车3号车厢", A, ["service-hotline"]),     # override: unlikely -> answerable
    (33, "栖州站附近", N, []),
    (34, "沧铁以后会不会出", N, []),
    (35, "梧原北到云津", N, []),
    (36, "我有哮喘", N, []),
    (37, "带了一箱自家酿的米酒", A, ["prohibited-items"]),    # override: unlikely -> answerable
    (38, "帮我查下我老公", N, []),
    (39, "你好", CH, []),
    (40, "谢谢啦", CH, []),
    (41, "你们是机器人", CH, []),
    (42, "祝你们春运辛苦啦", CH, []),
    # --- zh-coffee-heyu ---
    (43, "怎么升级", A, ["member-levels"]),
    (44, "积分咋用", A, ["redeem-points"]),
    (45, "券在哪看", A, ["coupon-types"]),
    (46, "卡里钱能退吗", A, ["stored-value-refund"]),
    (47, "有燕麦奶吗", A, ["plant-milk"]),
    (48, "生日福利", A, ["birthday-gift"]),
    (49, "jf能换啥", A, ["redeem-points"]),
    (50, "我现在是什么等级", N, []),                            # override: no body says where to see the level
    (51, "积分多久过期", A, ["points-expiry"]),
    (52, "买了咖啡积分没道账", A, ["points-missing"]),
    (53, "优惠卷为啥用不了", A, ["coupon-unavailable"]),
    (54, "朋友送了张卡", A, ["gift-card"]),
    (55, "外卖洒了一半", A, ["delivery-problems"]),
    (56, "公司报销要专票", A, ["invoice"]),
    (57, "怀孕了能喝啥", A, ["sugar-decaf"]),
    (58, "坚果过敏", A, ["allergens"]),
    (59, "储值卡余额跟积分", N, []),                            # override: hard call
    (60, "手机号换了", A, ["change-phone"]),
    (61, "订单下错了", A, ["cancel-refund"]),
    (62, "fapiao在哪开", A, ["invoice"]),
    (63, "上周在安湖万象店", A, ["earn-points", "points-missing"]),
    (64, "我点的外送", A, ["delivery-problems"]),
    (65, "我是新会员", A, ["join-membership"]),                # hard call
    (66, "朋友生日我在小程序", A, ["gift-card"]),
    (67, "我上个月消费满了", A, ["member-levels"]),
    (68, "怀孕五个月了", N, []),                                # override: no caffeine mg anywhere
    (69, "我们部门每周团购", A, ["invoice"]),
    (70, "储值卡里充了500", A, ["stored-value-refund"]),
    (71, "点了自取", A, ["cancel-refund", "pickup-late"]),    # hard call
    (72, "乳糖不耐受", N, []),                                  # override: no default-milk setting
    (73, "澄州哪家店最安静", N, []),                            # hard call
    (74, "大学城那家店的店长", A, ["customer-service"]),       # override: unlikely -> answerable
    (75, "想在老家县城加盟", N, []),
    (76, "你们拿铁用的豆子", N, []),
    (77, "我家金毛", N, []),
    (78, "去年圣诞那款", N, []),
    (79, "我有糖尿病", A, ["sugar-decaf", "allergens"]),       # override: unlikely -> answerable
    (80, "公司年会想定制", N, []),
    (81, "早上好", CH, []),
    (82, "谢谢小姐姐", CH, []),
    (83, "哈哈哈新出的杯子", CH, []),
    (84, "今天周五", CH, []),
    # --- zh-univ-lanjiang ---
    (85, "补考时间", A, ["makeup-exam"]),
    (86, "怎么查成绩", A, ["gpa"]),
    (87, "缓考咋申请", A, ["deferred-exam"]),
    (88, "四六级报名", A, ["cet-registration"]),
    (89, "在读证明", A, ["enrollment-certificate"]),
    (90, "转专业条件", A, ["major-transfer"]),
    (91, "重修怎么选", A, ["retake"]),
    (92, "休学流程", A, ["leave-of-absence"]),
    (93, "挂了一门", A, ["makeup-exam"]),
    (94, "两门考试撞了", A, ["exam-conflict"]),
    (95, "成绩出来了 感觉给低了", A, ["grade-review"]),
    (96, "选课系统一直进不去", N, []),                          # override: nothing on system access
    (97, "要英文成绩单", A, ["transcript"]),
    (98, "期末考试安排在哪看", A, ["exam-schedule"]),
    (99, "选修课退课截止", A, ["drop-course"]),
    (100, "辅修双学位怎么报名", A, ["minor-double-degree"]),
    (101, "cet4报名要交多少钱", A, ["cet-registration"]),
    (102, "补考也挂了咋办", A, ["retake", "makeup-exam"]),
    (103, "jwc电话多少", A, ["office-contact"]),
    (104, "挂课了会通知家长吗", N, []),                        # override: nothing on parents
    (105, "老师好 我是家长", N, []),                            # override: no dismissal rule
    (106, "我是大二的 明天早上考高数", A, ["deferred-exam"]),
    (107, "本来选上的专业课", A, ["course-full"]),
    (108, "我想从机械转到计算机", A, ["major-transfer"]),
    (109, "家里出了点事", A, ["leave-of-absence", "resume-study"]),
    (110, "下学期要去国外交换", A, ["credit-recognition"]),
    (111, "上学期体育课成绩", A, ["grade-correction", "course-evaluation"]),
    (112, "毕业审核说我还差", A, ["graduation-audit"]),
    (113, "我是辅导员", A, ["degree-conditions", "retake"]),  # hard call
    (114, "学信网的学籍验证报告", A, ["enrollment-certificate"]),
    (115, "今年我们学院保研", N, []),
    (116, "宿舍空调坏了", N, []),
    (117, "线代的那个老师", N, []),
    (118, "大学物理哪个老师", N, []),
    (119, "学费能不能分期", N, []),
    (120, "校园卡丢了", N, []),
    (121, "我延毕了一年", A, ["degree-conditions", "graduation-audit"]),  # override: unlikely -> answerable
    (122, "想提前一年毕业", N, []),
    (123, "老师辛苦了", CH, []),
    (124, "谢谢老师", CH, []),
    (125, "终于考完了", CH, []),
    (126, "在吗", CH, []),
]

# ---------------------------------------------------------------------------
# 2. Conversation labels: id -> (kind, first_article, followup_article)
#    LEFT_OUT: id -> reason (first message not answered by any single article)
# ---------------------------------------------------------------------------
FOLLOWUPS = {
    "rail-01": ("stay", "refund", "refund"),
    "rail-02": ("stay", "student-ticket", "student-ticket"),
    "rail-03": ("stay", "child-ticket", "child-ticket"),
    "rail-04": ("stay", "prohibited-items", "prohibited-items"),      # hard call: count not limited
    "rail-05": ("offtopic", "rebook", None),                          # override stay: changing boarding station not covered
    "rail-06": ("move", "lost-on-train", "lost-and-found"),           # override stay
    "rail-07": ("stay", "reimbursement", "reimbursement"),
    "rail-08": ("stay", "delay-refund", "delay-refund"),
    "rail-09": ("stay", "waitlist", "waitlist"),
    "rail-11": ("move", "refund", "refund-arrival"),
    "rail-12": ("move", "missed-train", "rebook"),
    "rail-13": ("move", "passenger-list", "e-ticket-entry"),
    "rail-14": ("stay", "rebook", "rebook"),                          # override move
    "rail-15": ("move", "student-verification", "student-ticket"),
    "rail-16": ("move", "real-name-id", "e-ticket-entry"),
    "rail-17": ("move", "luggage-limits", "luggage-shipping"),
    "rail-19": ("offtopic", "reimbursement", None),                   # override move: no mailing of vouchers
    "rail-20": ("stay", "service-hotline", "service-hotline"),        # override move
    "rail-21": ("offtopic", "child-ticket", None),                    # override change: parking
    "rail-22": ("change", "rebook", "pets"),
    "rail-23": ("offtopic", "reimbursement", None),                   # override change: blankets
    "rail-24": ("change", "waitlist", "real-name-id"),
    "rail-25": ("another", "lost-on-train", "lost-and-found"),
    "rail-26": ("another", "child-ticket", "student-ticket"),
    "coffee-01": ("stay", "points-expiry", "points-expiry"),
    "coffee-02": ("stay", "invoice", "invoice"),
    "coffee-03": ("stay", "birthday-gift", "birthday-gift"),
    "coffee-04": ("offtopic", "stored-value-refund", None),           # override stay: partial refund not covered
    "coffee-05": ("stay", "plant-milk", "plant-milk"),
    "coffee-06": ("stay", "member-levels", "member-levels"),
    "coffee-07": ("stay", "delivery-problems", "delivery-problems"),
    "coffee-08": ("stay", "join-membership", "join-membership"),
    "coffee-09": ("stay", "sugar-decaf", "sugar-decaf"),
    "coffee-10": ("offtopic", "gift-card", None),                     # override stay: re-gifting not covered
    "coffee-11": ("stay", "redeem-points", "redeem-points"),          # override move, hard call
    "coffee-12": ("offtopic", "invoice", None),                       # override move
    "coffee-13": ("move", "delivery-problems", "cancel-refund"),
    "coffee-14": ("stay", "stored-value-card", "stored-value-card"),  # override move
    "coffee-16": ("stay", "cancel-refund", "cancel-refund"),          # override move
    "coffee-17": ("stay", "allergens", "allergens"),                  # override move
    "coffee-18": ("stay", "change-phone", "change-phone"),            # override move
    "coffee-19": ("offtopic", "coupon-unavailable", None),            # override move
    "coffee-20": ("stay", "gift-card", "gift-card"),                  # override move
    "coffee-22": ("offtopic", "invoice", None),                       # override change: hiring
    "coffee-23": ("offtopic", "coupon-types", None),                  # override change: merch stock
    "coffee-24": ("change", "stored-value-balance", "store-finder"),
    "coffee-25": ("offtopic", "points-missing", None),                # override more: stored-value top-up not arriving
    "coffee-26": ("another", "sugar-decaf", "sugar-decaf"),           # hard call
    "univ-01": ("stay", "makeup-exam", "makeup-exam"),
    "univ-02": ("stay", "deferred-exam", "deferred-exam"),
    "univ-03": ("stay", "grade-review", "grade-review"),
    "univ-04": ("stay", "cet-registration", "cet-registration"),
    "univ-05": ("stay", "major-transfer", "major-transfer"),
    "univ-06": ("stay", "enrollment-certificate", "enrollment-certificate"),
    "univ-07": ("stay", "retake", "retake"),
    "univ-08": ("stay", "leave-of-absence", "leave-of-absence"),
    "univ-09": ("move", "course-full", "course-selection"),           # override stay
    "univ-10": ("stay", "degree-conditions", "degree-conditions"),
    "univ-11": ("move", "makeup-exam", "retake"),
    "univ-12": ("offtopic", "grade-review", None),                    # override move, hard call
    "univ-13": ("move", "leave-of-absence", "resume-study"),
    "univ-14": ("stay", "transcript", "transcript"),                  # override move
    "univ-15": ("move", "exam-conflict", "deferred-exam"),
    "univ-16": ("move", "major-transfer", "transfer-credits"),
    "univ-17": ("offtopic", "cet-registration", None),                # override move: admission ticket
    "univ-18": ("stay", "graduation-audit", "graduation-audit"),      # override move
    "univ-19": ("stay", "minor-double-degree", "minor-double-degree"),  # override move
    "univ-20": ("offtopic", "enrollment-certificate", None),          # override move: tripartite agreement
    "univ-21": ("offtopic", "makeup-exam", None),                     # override change: campus card
    "univ-22": ("offtopic", "exam-schedule", None),                   # override change: dorm
    "univ-24": ("offtopic", "enrollment-certificate", None),          # override change: tuition
    "univ-25": ("another", "late-absent", "late-absent"),
    "univ-26": ("another", "enrollment-certificate", "enrollment-certificate"),
}

LEFT_OUT = {
    "rail-10": "云津站停车场收费: no article covers station parking.",
    "rail-18": "出站坐地铁: no article covers onward metro/bus transfer.",
    "coffee-15": "等级在哪看: member-levels/level-benefits say how levels are computed, no body says where to see one's current level.",
    "coffee-21": "积分怎么查: no body gives a place to see the points balance (only how to earn/redeem/expire).",
    "univ-23": "成绩什么时候出: no body says when grades are published (gpa says where to look; grade-correction only says what to do 4 weeks after the course).",
}

FOLLOWUP_KINDS = {"stay", "move", "change", "offtopic", "another"}
QUESTION_KINDS = {A, N, CH}


# ---------------------------------------------------------------------------
def load_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_articles():
    out = {}
    for name in sorted(os.listdir(ACCOUNTS_DIR)):
        if name.endswith(".json"):
            with open(os.path.join(ACCOUNTS_DIR, name), encoding="utf-8") as f:
                acc = json.load(f)
            out[acc["id"]] = {a["id"] for a in acc["articles"]}
    return out


def build_rows(questions, followups, draft, convs):
    qrows = []
    for (no, prefix, kind, ids), d in zip(questions, draft):
        qrows.append({"account": d["account"], "question": d["question"],
                      "answer_ids": list(ids), "kind": kind, "_no": no, "_prefix": prefix})
    frows = []
    for c in convs:
        if c["id"] in followups:
            kind, fa, fu = followups[c["id"]]
            frows.append({"id": c["id"], "account": c["account"], "kind": kind,
                          "first": c["first"], "first_article": fa,
                          "followup": c["followup"], "followup_article": fu})
    return qrows, frows


def check(qrows, frows, left_out, draft, convs, articles):
    """Return a list of error strings (empty == all good)."""
    errs = []
    # -- questions --
    if len(qrows) != len(draft):
        errs.append(f"questions: {len(qrows)} labels for {len(draft)} draft lines")
    for i, (row, d) in enumerate(zip(qrows, draft), 1):
        tag = f"q{i}"
        if row.get("_no", i) != i:
            errs.append(f"{tag}: table line number {row.get('_no')} out of order")
        if "_prefix" in row and not d["question"].startswith(row["_prefix"]):
            errs.append(f"{tag}: table prefix {row['_prefix']!r} does not match draft text")
        if row["question"] != d["question"]:
            errs.append(f"{tag}: question text changed")
        if row["account"] != d["account"]:
            errs.append(f"{tag}: account changed")
        kind, ids = row["kind"], row["answer_ids"]
        if kind not in QUESTION_KINDS:
            errs.append(f"{tag}: bad kind {kind!r}")
        if kind == A and not (1 <= len(ids) <= 3):
            errs.append(f"{tag}: answerable needs 1-3 ids, has {len(ids)}")
        if kind in (N, CH) and ids:
            errs.append(f"{tag}: {kind} must have no ids")
        if len(set(ids)) != len(ids):
            errs.append(f"{tag}: duplicate ids")
        for a in ids:
            if a not in articles.get(row["account"], set()):
                errs.append(f"{tag}: id {a!r} not in {row['account']}")
    # -- conversations --
    conv_by_id = {c["id"]: c for c in convs}
    if len(conv_by_id) != len(convs):
        errs.append("conversations: duplicate ids in writer file")
    seen = Counter(r["id"] for r in frows)
    for cid, n in seen.items():
        if n > 1:
            errs.append(f"{cid}: labelled {n} times")
        if cid in left_out:
            errs.append(f"{cid}: both labelled and left out")
        if cid not in conv_by_id:
            errs.append(f"{cid}: labelled but not in writer file")
    for cid in left_out:
        if cid not in conv_by_id:
            errs.append(f"{cid}: left out but not in writer file")
        if not str(left_out[cid]).strip():
            errs.append(f"{cid}: left out without a reason")
    for cid in conv_by_id:
        if cid not in seen and cid not in left_out:
            errs.append(f"{cid}: neither labelled nor left out")
    order = [c["id"] for c in convs if c["id"] in seen]
    if [r["id"] for r in frows] != order:
        errs.append("followups: not in writer order")
    for r in frows:
        cid = r["id"]
        c = conv_by_id.get(cid)
        if c is None:
            continue
        if (r["account"], r["first"], r["followup"]) != (c["account"], c["first"], c["followup"]):
            errs.append(f"{cid}: account/first/followup text changed")
        ids_ok = articles.get(r["account"], set())
        k, fa, fu = r["kind"], r["first_article"], r["followup_article"]
        if k not in FOLLOWUP_KINDS:
            errs.append(f"{cid}: bad kind {k!r}")
        if fa is None or fa not in ids_ok:
            errs.append(f"{cid}: first_article {fa!r} missing or not in {r['account']}")
        if fu is not None and fu not in ids_ok:
            errs.append(f"{cid}: followup_article {fu!r} not in {r['account']}")
        if k == "stay" and fu != fa:
            errs.append(f"{cid}: stay must reuse first_article")
        if k in ("move", "change") and (fu is None or fu == fa):
            errs.append(f"{cid}: {k} needs a different non-null followup_article")
        if k == "offtopic" and fu is not None:
            errs.append(f"{cid}: offtopic must have followup_article null")
    return errs


def strip(rows):
    return [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def selftest(qrows, frows, draft, convs, articles):
    """Deliberately break copies of the labels; every break must be caught."""
    breaks = []

    def b(name, mutate):
        q, f, lo = copy.deepcopy(qrows), copy.deepcopy(frows), dict(LEFT_OUT)
        mutate(q, f, lo)
        errs = check(q, f, lo, draft, convs, articles)
        breaks.append((name, errs))

    b("unknown article id (q1 -> 'refunds')", lambda q, f, lo: q[0].__setitem__("answer_ids", ["refunds"]))
    b("id from another account (q43 -> rail 'refund')", lambda q, f, lo: q[42].__setitem__("answer_ids", ["refund"]))
    b("answerable with no ids (q2)", lambda q, f, lo: q[1].__setitem__("answer_ids", []))
    b("answerable with 4 ids (q22)", lambda q, f, lo: q[21].__setitem__(
        "answer_ids", ["priority-passenger", "e-ticket-entry", "id-lost", "refund"]))
    b("unanswerable with an id (q8)", lambda q, f, lo: q[7].__setitem__("answer_ids", ["ticket-channels"]))
    b("chat with an id (q39)", lambda q, f, lo: q[38].__setitem__("answer_ids", ["service-hotline"]))
    b("question text edited (q3)", lambda q, f, lo: q[2].__setitem__("question", "学生票怎么买"))
    b("draft line dropped (q60)", lambda q, f, lo: q.pop(59))
    b("two lines swapped (q10/q11)", lambda q, f, lo: q.__setitem__(slice(9, 11), [q[10], q[9]]))
    b("stay with different article (rail-01)", lambda q, f, lo: f[0].__setitem__("followup_article", "refund-arrival"))
    b("move to same article (rail-11)", lambda q, f, lo: next(r for r in f if r["id"] == "rail-11")
      .__setitem__("followup_article", "refund"))
    b("change with null article (rail-22)", lambda q, f, lo: next(r for r in f if r["id"] == "rail-22")
      .__setitem__("followup_article", None))
    b("offtopic with an article (rail-21)", lambda q, f, lo: next(r for r in f if r["id"] == "rail-21")
      .__setitem__("followup_article", "child-ticket"))
    b("conversation both labelled and left out (rail-01)", lambda q, f, lo: lo.__setitem__("rail-01", "x"))
    b("conversation neither labelled nor left out (drop rail-10 from LEFT_OUT)", lambda q, f, lo: lo.pop("rail-10"))
    b("conversation labelled twice (rail-02)", lambda q, f, lo: f.insert(2, copy.deepcopy(f[1])))
    b("first_article null (coffee-01)", lambda q, f, lo: next(r for r in f if r["id"] == "coffee-01")
      .__setitem__("first_article", None))
    b("followup text edited (univ-01)", lambda q, f, lo: next(r for r in f if r["id"] == "univ-01")
      .__setitem__("followup", "在哪报名啊"))

    ok = True
    for name, errs in breaks:
        caught = bool(errs)
        ok &= caught
        print(f"  [{'caught' if caught else 'MISSED'}] {name}: {errs[0] if errs else '-'}")
    return ok


def main():
    draft = load_jsonl(DRAFT)
    convs = load_jsonl(CONVS)
    articles = load_articles()
    qrows, frows = build_rows(QUESTIONS, FOLLOWUPS, draft, convs)
    errs = check(qrows, frows, LEFT_OUT, draft, convs, articles)
    # also flag table entries that reference unknown conversations
    for cid in FOLLOWUPS:
        if cid not in {c["id"] for c in convs}:
            errs.append(f"{cid}: in FOLLOWUPS table but not in writer file")
    if errs:
        print("ERRORS:")
        for e in errs:
            print("  " + e)
        sys.exit(1)
    write_jsonl(OUT_Q, strip(qrows))
    write_jsonl(OUT_F, frows)
    # re-read what was written and verify again (the files, not the tables)
    errs = check(load_jsonl(OUT_Q), load_jsonl(OUT_F), LEFT_OUT, draft, convs, articles)
    if errs:
        print("ERRORS in written files:", *errs, sep="\n  ")
        sys.exit(1)
    print(f"wrote {OUT_Q} ({len(qrows)} lines) and {OUT_F} ({len(frows)} lines); all checks pass")

    print("\nquestions per account/kind:")
    qc = Counter((r["account"], r["kind"]) for r in qrows)
    for acc in (R, C, U):
        print(f"  {acc}: " + ", ".join(f"{k}={qc[(acc, k)]}" for k in (A, N, CH))
              + f", total={sum(qc[(acc, k)] for k in (A, N, CH))}")
    print("followups per account/kind:")
    fc = Counter((r["account"], r["kind"]) for r in frows)
    lo = Counter(next(c["account"] for c in convs if c["id"] == cid) for cid in LEFT_OUT)
    for acc in (R, C, U):
        print(f"  {acc}: " + ", ".join(f"{k}={fc[(acc, k)]}" for k in
                                       ("stay", "move", "change", "offtopic", "another"))
              + f", labelled={sum(v for (a, _), v in fc.items() if a == acc)}, left_out={lo[acc]}")

    # intent overrides (for NOTES.md)
    print("\nquestion intent vs label:")
    imap = {"question": A, "unlikely": N, "chat": CH}
    for i, (r, d) in enumerate(zip(qrows, draft), 1):
        if imap[d["intent"]] != r["kind"]:
            print(f"  q{i} [{d['intent']} -> {r['kind']} {r['answer_ids']}] {d['question']}")
    print("conversation intent vs label:")
    fmap = {"more": "another"}
    for c in convs:
        r = next((x for x in frows if x["id"] == c["id"]), None)
        lab = r["kind"] if r else "LEFT OUT"
        if fmap.get(c["intent"], c["intent"]) != lab:
            print(f"  {c['id']} [{c['intent']} -> {lab}] {c['first']} / {c['followup']}")

    if "--selftest" in sys.argv:
        print("\nselftest (deliberate breaks):")
        if not selftest(qrows, frows, draft, convs, articles):
            print("SELFTEST FAILED: some break was not caught")
            sys.exit(1)
        print("  all deliberate breaks caught")


if __name__ == "__main__":
    main()
