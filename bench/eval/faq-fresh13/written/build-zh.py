#!/usr/bin/env python3
"""Build and verify the zh evaluation labels.

Writes questions.jsonl and followups.jsonl next to this file from the label
tables below, after checking them against the articles and the writer's files.

    python3 build.py             # check, then write
    python3 build.py --selftest  # also show that deliberate breaks are caught
"""
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ACC_DIR = os.path.join(ROOT, "zh", "accounts")
DRAFT = os.path.join(ROOT, "zh-writer", "draft-zh.jsonl")
CONV = os.path.join(ROOT, "zh-writer", "conversations-zh.jsonl")

PET, PROP, TEL = "zh-pet-maoqiu", "zh-property-jinyuan", "zh-telecom-xunlian"
A, U, C = "answerable", "unanswerable", "chat"

# ---------------------------------------------------------------------------
# 1. Draft questions: (line index, start of the text, kind, answer ids)
#    The text fragment guards against mis-alignment; the full text is copied
#    from the writer's file unchanged.
# ---------------------------------------------------------------------------
Q = [
    # --- zh-pet-maoqiu -----------------------------------------------------
    (0, "怎么约医生", A, ["booking-online"]),
    (1, "绝育多少钱", A, ["neuter-cat", "neuter-dog"]),  # species not given: each answers
    (2, "寄养一天多少钱", A, ["boarding-rules"]),
    (3, "能开发票吗", A, ["invoice"]),
    (4, "洗牙要麻醉吗", A, ["dental-cleaning", "surgery-preop"]),
    (5, "城东院区几点关门", A, ["branches-hours"]),  # no 城东 branch: list of all branch hours
    (6, "处方粮能送到家不", A, ["prescription-diet", "mall-delivery"]),
    (7, "化验报告在哪看", A, ["lab-reports"]),
    (8, "猫洗澡多少钱", A, ["grooming"]),
    (9, "有上门打针的吗", U, []),  # no home-visit service anywhere
    (10, "约了明天下午的号", A, ["booking-change-cancel"]),
    (11, "小猫两个月了", A, ["cat-vaccine"]),
    (12, "打完疫苗多久能洗澡", A, ["vaccine-precautions", "grooming"]),
    (13, "公狗绝育一般多大", A, ["neuter-dog"]),
    (14, "住院的狗狗能去看看", A, ["hospitalization"]),
    (15, "宠物保险报销要你们", A, ["insurance-claim"]),
    (16, "想约陈医生", A, ["specialist-clinics", "booking-online"]),
    (17, "我家猫一直吃肾处方粮", A, ["prescription-diet", "mall-delivery"]),
    (18, "半夜哪个院区还开着", A, ["emergency-24h", "branches-hours"]),
    (19, "上次结账多收了我两百", A, ["refund-policy"]),
    (20, "我家狗今晚偷吃了半块巧克力", A, ["emergency-signs", "emergency-24h"]),
    (21, "刚从朋友那接了只小奶猫", A, ["deworming", "cat-vaccine", "vaccine-precautions"]),
    (22, "下个月要出差十天", A, ["boarding-rules", "boarding-booking"]),
    (23, "母猫上周五在你们这做的绝育", A, ["post-op-care"]),
    (24, "我家老狗14岁了", A, ["euthanasia-aftercare"]),
    (25, "猫上个月在你们那住院", A, ["insurance-claim"]),
    (26, "狗狗从下午到现在吐了五六次", A, ["emergency-24h"]),  # hotline + night branch; vomiting not in emergency-signs
    (27, "想给家里比熊洗个牙", A, ["dental-cleaning", "surgery-preop"]),
    (28, "刚养了只柯基", A, ["dog-vaccine", "membership-card"]),
    (29, "上周带猫来看皮肤", A, ["lab-reports"]),
    (30, "我家是无毛猫", U, []),
    (31, "发张照片给你们", U, []),
    (32, "狗狗绝育完性格会变吗", U, []),
    (33, "想带狗去日本住两年", A, ["microchip"]),  # "本院仅提供芯片植入及疫苗接种服务" = no
    (34, "在路边捡了只受伤的流浪猫", U, []),  # TNR discount is for neutering only
    (35, "我家猫在别家医院做的绝育", U, []),
    (36, "猫走了 想把它做成标本", U, []),
    (37, "你们医院附近能停房车吗", U, []),
    (38, "在吗在吗", C, []),
    (39, "谢谢刘医生", C, []),
    (40, "前台那个小姐姐态度太好了", C, []),
    (41, "排了一个多小时队", C, []),
    # --- zh-property-jinyuan -----------------------------------------------
    (42, "物业费怎么交", A, ["property-fee-payment"]),
    (43, "门禁卡丢了", A, ["access-card"]),
    (44, "装修押金啥时候退", A, ["renovation-deposit-refund"]),
    (45, "车位月租多少", A, ["parking-monthly-rent"]),
    (46, "旧沙发扔哪", A, ["bulky-waste"]),
    (47, "搬家要开条吗", A, ["moving-permit"]),
    (48, "访客停车收费不", A, ["temporary-parking"]),
    (49, "几点能装修", A, ["renovation-hours"]),
    (50, "报修电话多少", A, ["repair-report", "service-center"]),
    (51, "维修资金咋查", U, []),  # 专项维修资金: no article
    (52, "物业费晚交几个月", A, ["fee-overdue"]),
    (53, "账单上除了物业费还有个公摊电费", A, ["public-energy-share"]),
    (54, "卫生间水龙头坏了", A, ["repair-scope-fees", "repair-report"]),
    (55, "我妈刷不了脸", A, ["face-recognition"]),
    (56, "想在自己车位装个充电桩", A, ["ev-charging"]),
    (57, "外卖小哥进不来", A, ["takeaway-delivery"]),
    (58, "楼上每天晚上十一二点", A, ["neighbor-noise"]),
    (59, "刚买的二手房", A, ["owner-change"]),
    (60, "昨天在小区里丢了个钱包", A, ["lost-and-found"]),
    (61, "明天是不是要停水", A, ["outage-notice"]),  # says where notices appear / whom to ask
    (62, "现在半夜一点", A, ["emergency-repair", "repair-report"]),
    (63, "我家房子刚收", A, ["renovation-application", "renovation-prohibited"]),
    (64, "房子租出去了", A, ["access-card", "tenant-registration", "face-recognition"]),
    (65, "我的电动车上周停在3号楼下", A, ["cctv-footage"]),
    (66, "下周末爸妈和几个亲戚来吃饭", A, ["temporary-parking"]),
    (67, "隔壁邻居养了只金毛", A, ["pets"]),
    (68, "客厅的灯突然全灭了", A, ["repair-scope-fees", "emergency-repair"]),
    (69, "去年交了一整年物业费", A, ["public-energy-share", "water-electricity"]),
    (70, "房子卖掉了", A, ["owner-change"]),  # partial: refund of prepaid fee not covered
    (71, "小区的健身房和游泳池", U, []),  # pool "另行公告", no gym
    (72, "我们几个邻居觉得现在这家保安公司", U, []),
    (73, "我住顶楼", A, ["renovation-prohibited"]),  # 屋面 is a public part: banned
    (74, "小区附近哪家开锁师傅", U, []),
    (75, "家里老人一个人住", U, []),
    (76, "8栋那套空房子", U, []),
    (77, "我在阳台养了几只鸽子", U, []),
    (78, "想借小区会所给孩子办个生日派对", A, ["clubhouse-booking"]),  # 40人, free, no 宴请
    (79, "我家楼下那棵香樟", U, []),
    (80, "管家小王人真不错", C, []),
    (81, "早上好", C, []),
    (82, "电梯又坏了", C, []),
    (83, "好的收到", C, []),
    # --- zh-telecom-xunlian ------------------------------------------------
    (84, "现在有啥套餐", A, ["plans-overview"]),
    (85, "怎么查流量", A, ["bill-query"]),
    (86, "充错号码了", A, ["topup-not-received"]),
    (87, "宽带多少钱一年", A, ["broadband-plans"]),
    (88, "话费发票怎么开", A, ["invoice"]),
    (89, "服务密码忘了", A, ["service-password"]),
    (90, "销户要去营业厅吗", A, ["account-closure"]),
    (91, "积分能换啥", A, ["points"]),
    (92, "5g要换卡吗", A, ["5g-service", "sim-replacement"]),
    (93, "最近的营业厅在哪", A, ["stores"]),
    (94, "这个月流量用完了", A, ["data-addon"]),
    (95, "话费充了半个小时了", A, ["topup-not-received", "topup-methods"]),
    (96, "欠费停机了 交完钱", A, ["arrears-suspension"]),
    (97, "想从138的套餐", A, ["plan-change"]),
    (98, "搬家了 宽带能一起移", A, ["broadband-relocation"]),
    (99, "怎么屏蔽骚扰电话", A, ["anti-spam"]),
    (100, "给我妈办张副卡", A, ["secondary-card", "real-name"]),
    (101, "我用的别家的号", A, ["port-in"]),
    (102, "宽带已经约了", A, ["broadband-install"]),
    (103, "合约机还没到期", A, ["contract-rules", "plan-change"]),
    (104, "这个月话费突然扣了89", A, ["vas-unsubscribe"]),
    (105, "下周去泰国玩五天", A, ["roaming-rates", "roaming-activation"]),
    (106, "家里宽带从昨晚开始", A, ["broadband-repair", "broadband-selfcheck"]),
    (107, "手机昨天在地铁上被偷了", A, ["lost-phone", "sim-replacement"]),
    (108, "准备装宽带 家里两个人", A, ["broadband-plans"]),
    (109, "我爸的卡是用他身份证办的", A, ["ownership-transfer"]),
    (110, "在外地上班", A, ["port-out"]),  # keep the number, leave: 携号转网
    (111, "家住18楼", U, []),  # signal complaints / site visits: no article
    (112, "不小心给一个陌生号码充了100", A, ["topup-not-received"]),
    (113, "我现在用的99的套餐", A, ["plans-overview", "plan-change"]),
    (114, "说实话 你们跟移动比", U, []),
    (115, "我们村在山里头", U, []),
    (116, "想要个尾号8888", U, []),
    (117, "手机屏幕碎了", U, []),
    (118, "能不能帮我查下我老公的号", A, ["bill-query"]),  # 详单只向机主本人提供
    (119, "家里猫把光纤咬断了", A, ["broadband-repair", "broadband-selfcheck"]),  # 熔接 50元, don't DIY
    (120, "想从家里单独拉根网线", U, []),
    (121, "我亲戚在你们营业厅上班", U, []),
    (122, "你好", C, []),
    (123, "问题解决了", C, []),
    (124, "信号差成这样", C, []),
    (125, "这么晚还在", C, []),
]

# ---------------------------------------------------------------------------
# 2. Conversations: id -> (kind, first_article, followup_article)
#    LEFT_OUT: id -> reason (first message not answered by one article)
# ---------------------------------------------------------------------------
F = {
    # --- pet ---
    "pet-01": ("stay", "neuter-cat", "neuter-cat"),
    "pet-02": ("move", "boarding-rules", "boarding-booking"),      # holiday +20% is in boarding-booking
    "pet-03": ("stay", "dog-vaccine", "dog-vaccine"),
    "pet-04": ("stay", "booking-change-cancel", "booking-change-cancel"),  # only sanction is suspension, no fee
    "pet-05": ("offtopic", "dental-cleaning", None),               # recovery time from anaesthesia: nowhere
    "pet-06": ("stay", "emergency-24h", "emergency-24h"),
    "pet-07": ("stay", "vaccine-precautions", "vaccine-precautions"),
    "pet-08": ("stay", "hospitalization", "hospitalization"),
    "pet-09": ("move", "prescription-diet", "mall-delivery"),      # delivery times only in mall-delivery
    "pet-10": ("stay", "insurance-claim", "insurance-claim"),
    "pet-11": ("move", "neuter-dog", "dental-cleaning"),
    "pet-12": ("offtopic", "boarding-rules", None),                # bath during boarding: nowhere
    "pet-13": ("move", "lab-reports", "invoice"),
    "pet-14": ("move", "booking-online", "booking-change-cancel"),
    "pet-15": ("move", "cat-vaccine", "dog-vaccine"),
    "pet-16": ("stay", "hospitalization", "hospitalization"),      # 多退少补 is in hospitalization
    "pet-17": ("move", "prescription-refill", "prescription-diet"),
    "pet-18": ("stay", "grooming", "grooming"),                    # 剃毛 price is in grooming
    "pet-19": ("move", "vaccine-precautions", "deworming"),
    "pet-22": ("change", "dental-cleaning", "insurance-claim"),
    "pet-23": ("change", "vaccine-precautions", "refund-policy"),
    "pet-24": ("offtopic", "invoice", None),                       # old cat not eating: not in emergency-signs
    "pet-25": ("another", "post-op-care", "post-op-care"),         # the 14-day bath rule is in the same article
    "pet-26": ("another", "emergency-24h", None),                  # bare 换一个
    # --- property ---
    "property-01": ("move", "property-fee-standard", "property-fee-payment"),
    "property-02": ("stay", "renovation-hours", "renovation-hours"),
    "property-03": ("stay", "access-card", "access-card"),
    "property-04": ("stay", "temporary-parking", "temporary-parking"),
    "property-05": ("offtopic", "renovation-deposit-refund", None),  # no transfer time given
    "property-06": ("stay", "emergency-repair", "emergency-repair"),
    "property-07": ("stay", "bulky-waste", "bulky-waste"),
    "property-08": ("stay", "parking-monthly-rent", "parking-monthly-rent"),
    "property-09": ("stay", "moving-permit", "moving-permit"),
    "property-10": ("stay", "express-delivery", "express-delivery"),
    "property-11": ("move", "access-card", "face-recognition"),
    "property-12": ("move", "property-fee-payment", "water-electricity"),
    "property-13": ("move", "parking-monthly-rent", "ev-charging"),
    "property-14": ("stay", "renovation-application", "renovation-application"),
    "property-15": ("move", "garbage-sorting", "bulky-waste"),
    "property-16": ("stay", "outage-notice", "outage-notice"),
    "property-17": ("move", "neighbor-noise", "pets"),
    "property-18": ("move", "tenant-registration", "owner-change"),
    "property-19": ("move", "repair-report", "repair-scope-fees"),
    "property-20": ("move", "cctv-footage", "lost-and-found"),
    "property-21": ("offtopic", "fee-overdue", None),              # pool "另行公告"
    "property-22": ("change", "visitor-access", "renovation-prohibited"),
    "property-23": ("offtopic", "renovation-application", None),   # 维修资金: nowhere
    "property-24": ("offtopic", "repair-report", None),            # 业委会: nowhere
    "property-25": ("another", "access-card", "access-card"),      # 消磁 -> free exchange, same article
    "property-26": ("another", "property-fee-standard", "parking-owned-space"),
    # --- telecom ---
    "telecom-01": ("stay", "data-addon", "data-addon"),
    "telecom-02": ("stay", "broadband-install", "broadband-install"),
    "telecom-03": ("stay", "arrears-suspension", "arrears-suspension"),
    "telecom-04": ("move", "roaming-activation", "roaming-rates"),
    "telecom-05": ("move", "lost-phone", "sim-replacement"),
    "telecom-06": ("stay", "invoice", "invoice"),
    "telecom-08": ("stay", "plan-change", "plan-change"),
    "telecom-09": ("stay", "topup-not-received", "topup-not-received"),
    "telecom-10": ("move", "broadband-selfcheck", "broadband-repair"),
    "telecom-11": ("move", "plan-change", "contract-rules"),
    "telecom-12": ("move", "sim-replacement", "service-password"),
    "telecom-13": ("move", "broadband-plans", "broadband-relocation"),
    "telecom-14": ("stay", "vas-unsubscribe", "vas-unsubscribe"),
    "telecom-15": ("move", "secondary-card", "ownership-transfer"),
    "telecom-16": ("stay", "anti-spam", "anti-spam"),
    "telecom-17": ("stay", "points", "points"),
    "telecom-18": ("move", "account-closure", "broadband-cancellation"),
    "telecom-19": ("offtopic", "topup-not-received", None),        # other carriers' numbers: nowhere
    "telecom-20": ("stay", "roaming-rates", "roaming-rates"),
    "telecom-21": ("change", "topup-methods", "stores"),
    "telecom-22": ("change", "plans-overview", "invoice"),
    "telecom-23": ("offtopic", "bill-query", None),                # signal complaint: nowhere
    "telecom-24": ("change", "topup-not-received", "service-password"),
    "telecom-25": ("another", "bill-items", "bill-items"),
    "telecom-26": ("another", "plans-overview", "contract-rules"),
}
LEFT_OUT = {
    "pet-20": "first message (上门服务) is answered by no article: there is no home-visit or online service article",
    "pet-21": "first message (寄养要提前几天订) is answered by no article: only the Spring Festival opening (a month before) is given, no general lead time",
    "telecom-07": "first message (携号转网怎么办) does not say the direction; port-in and port-out each answer one reading, no single article answers it",
}

KINDS_Q = {A, U, C}
KINDS_F = {"stay", "move", "change", "offtopic", "another"}


def load():
    arts = {}
    for fn in sorted(os.listdir(ACC_DIR)):
        d = json.load(open(os.path.join(ACC_DIR, fn), encoding="utf-8"))
        arts[d["id"]] = {a["id"] for a in d["articles"]}
    drafts = [json.loads(l) for l in open(DRAFT, encoding="utf-8") if l.strip()]
    convs = [json.loads(l) for l in open(CONV, encoding="utf-8") if l.strip()]
    return arts, drafts, convs


def build_questions(drafts, qtable):
    out = []
    for idx, frag, kind, ids in qtable:
        d = drafts[idx] if 0 <= idx < len(drafts) else {"account": None, "question": ""}
        out.append({"idx": idx, "frag": frag, "account": d["account"], "question": d["question"],
                    "answer_ids": list(ids), "kind": kind})
    return out


def build_followups(convs, ftable):
    out = []
    for c in convs:
        if c["id"] in ftable:
            kind, fa, fu = ftable[c["id"]]
            out.append({"id": c["id"], "account": c["account"], "kind": kind,
                        "first": c["first"], "first_article": fa,
                        "followup": c["followup"], "followup_article": fu})
    return out


def check(arts, drafts, convs, questions, followups, left_out, ftable):
    err = []
    # --- questions ---
    if len(questions) != len(drafts):
        err.append(f"questions: {len(questions)} labels for {len(drafts)} draft lines")
    seen = []
    for i, q in enumerate(questions):
        seen.append(q["idx"])
        if q["idx"] != i:
            err.append(f"questions[{i}]: label is for line {q['idx']} (out of order, missing or duplicated)")
            continue
        d = drafts[i]
        if q["question"] != d["question"] or q["account"] != d["account"]:
            err.append(f"questions[{i}]: text or account differs from the draft")
        if not d["question"].startswith(q["frag"]) and q["frag"] not in d["question"]:
            err.append(f"questions[{i}]: table fragment {q['frag']!r} not in draft text {d['question'][:20]!r}")
        if q["kind"] not in KINDS_Q:
            err.append(f"questions[{i}]: bad kind {q['kind']!r}")
        ids = q["answer_ids"]
        if q["kind"] == A and not (1 <= len(ids) <= 3):
            err.append(f"questions[{i}]: answerable needs 1-3 ids, has {len(ids)}")
        if q["kind"] in (U, C) and ids:
            err.append(f"questions[{i}]: {q['kind']} must have no ids")
        if len(set(ids)) != len(ids):
            err.append(f"questions[{i}]: duplicate ids")
        for a in ids:
            if a not in arts.get(q["account"], set()):
                err.append(f"questions[{i}]: id {a!r} not in {q['account']}")
        if d.get("intent") == "chat" and q["kind"] != C:
            pass  # allowed, but listed in NOTES as an override
    if sorted(seen) != list(range(len(drafts))):
        err.append("questions: draft lines not labelled exactly once")
    # --- followups ---
    conv_ids = [c["id"] for c in convs]
    byid = {c["id"]: c for c in convs}
    for cid in conv_ids:
        n = (cid in ftable) + (cid in left_out)
        if n != 1:
            err.append(f"conversation {cid}: labelled {int(cid in ftable)}x and left out {int(cid in left_out)}x")
    for cid in list(ftable) + list(left_out):
        if cid not in byid:
            err.append(f"conversation {cid}: not in the writer's file")
    fids = [f["id"] for f in followups]
    if len(fids) != len(set(fids)):
        err.append("followups: an id appears twice")
    for f in followups:
        c = byid.get(f["id"])
        if c is None:
            continue
        if (f["first"], f["followup"], f["account"]) != (c["first"], c["followup"], c["account"]):
            err.append(f"{f['id']}: text or account differs from the writer's file")
        ids_ok = arts.get(f["account"], set())
        k, fa, fu = f["kind"], f["first_article"], f["followup_article"]
        if k not in KINDS_F:
            err.append(f"{f['id']}: bad kind {k!r}")
        if fa is None or fa not in ids_ok:
            err.append(f"{f['id']}: first_article {fa!r} missing or not in {f['account']}")
        if fu is not None and fu not in ids_ok:
            err.append(f"{f['id']}: followup_article {fu!r} not in {f['account']}")
        if k == "stay" and fu != fa:
            err.append(f"{f['id']}: stay must reuse first_article")
        if k in ("move", "change") and (fu is None or fu == fa):
            err.append(f"{f['id']}: {k} needs a different, non-null article")
        if k == "offtopic" and fu is not None:
            err.append(f"{f['id']}: offtopic must have followup_article null")
    return err


def write(questions, followups):
    with open(os.path.join(HERE, "questions.jsonl"), "w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps({"account": q["account"], "question": q["question"],
                                 "answer_ids": q["answer_ids"], "kind": q["kind"]},
                                ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "followups.jsonl"), "w", encoding="utf-8") as fh:
        for f in followups:
            fh.write(json.dumps(f, ensure_ascii=False) + "\n")


def counts(questions, followups, drafts, convs):
    from collections import Counter
    qc = Counter((q["account"], q["kind"]) for q in questions)
    fc = Counter((f["account"], f["kind"]) for f in followups)
    accs = sorted({d["account"] for d in drafts})
    print("questions:")
    for a in accs:
        print(f"  {a}: " + ", ".join(f"{k} {qc[(a, k)]}" for k in (A, U, C)))
    print(f"  total: " + ", ".join(f"{k} {sum(qc[(a, k)] for a in accs)}" for k in (A, U, C)))
    print("followups:")
    for a in accs:
        print(f"  {a}: " + ", ".join(f"{k} {fc[(a, k)]}" for k in sorted(KINDS_F)))
    print(f"  total: {len(followups)} labelled, {len(convs) - len(followups)} left out")


def selftest(arts, drafts, convs):
    """Apply deliberate breaks; each must be caught by check()."""
    breaks = []

    def qcase(name, mut):
        qt = copy.deepcopy(Q)
        mut(qt)
        qs = build_questions(drafts, qt)
        fs = build_followups(convs, F)
        breaks.append((name, check(arts, drafts, convs, qs, fs, LEFT_OUT, F)))

    def fcase(name, mut_f=None, mut_l=None, mut_out=None):
        ft = copy.deepcopy(F)
        lo = dict(LEFT_OUT)
        if mut_f:
            mut_f(ft)
        if mut_l:
            mut_l(lo)
        qs = build_questions(drafts, Q)
        fs = build_followups(convs, ft)
        if mut_out:
            mut_out(fs)
        breaks.append((name, check(arts, drafts, convs, qs, fs, lo, ft)))

    qcase("unknown article id (typo 'boarding-rule')",
          lambda t: t.__setitem__(2, (2, "寄养一天多少钱", A, ["boarding-rule"])))
    qcase("id from another account (telecom 'stores' under pet)",
          lambda t: t.__setitem__(3, (3, "能开发票吗", A, ["stores"])))
    qcase("answerable with no ids", lambda t: t.__setitem__(9, (9, "有上门打针的吗", A, [])))
    qcase("chat with an id", lambda t: t.__setitem__(81, (81, "早上好", C, ["service-center"])))
    qcase("four ids", lambda t: t.__setitem__(21, (21, "刚从朋友那接了只小奶猫", A,
                                                   ["deworming", "cat-vaccine", "vaccine-precautions", "grooming"])))
    qcase("draft line dropped", lambda t: t.pop(50))
    qcase("two lines swapped", lambda t: t.__setitem__(slice(10, 12), [t[11], t[10]]))
    qcase("line labelled twice", lambda t: t.__setitem__(60, t[59]))
    fcase("stay with a different article",
          mut_f=lambda f: f.__setitem__("pet-03", ("stay", "dog-vaccine", "cat-vaccine")))
    fcase("move to the same article",
          mut_f=lambda f: f.__setitem__("pet-13", ("move", "lab-reports", "lab-reports")))
    fcase("change with null", mut_f=lambda f: f.__setitem__("pet-22", ("change", "dental-cleaning", None)))
    fcase("offtopic with an article",
          mut_f=lambda f: f.__setitem__("property-21", ("offtopic", "fee-overdue", "clubhouse-booking")))
    fcase("conversation neither labelled nor left out", mut_f=lambda f: f.pop("telecom-26"))
    fcase("conversation both labelled and left out",
          mut_l=lambda l: l.__setitem__("pet-01", "oops"))
    fcase("left-out id that does not exist", mut_l=lambda l: l.__setitem__("pet-99", "oops"))
    fcase("first_article null", mut_f=lambda f: f.__setitem__("telecom-01", ("stay", None, None)))
    fcase("follow-up text edited",
          mut_out=lambda fs: fs[0].__setitem__("followup", fs[0]["followup"] + "？"))

    # edited question text in the output
    qs = build_questions(drafts, Q)
    qs[0]["question"] = "怎么约医生?"
    breaks.append(("question text edited", check(arts, drafts, convs, qs, build_followups(convs, F), LEFT_OUT, F)))

    ok = True
    for name, err in breaks:
        status = "CAUGHT" if err else "MISSED"
        ok &= bool(err)
        print(f"  [{status}] {name}: {err[0] if err else ''}")
    return ok


def main():
    arts, drafts, convs = load()
    questions = build_questions(drafts, Q)
    followups = build_followups(convs, F)
    err = check(arts, drafts, convs, questions, followups, LEFT_OUT, F)
    if err:
        print("CHECKS FAILED:")
        for e in err:
            print("  " + e)
        sys.exit(1)
    print("all checks pass")
    write(questions, followups)
    counts(questions, followups, drafts, convs)
    if "--selftest" in sys.argv:
        print("selftest (deliberate breaks):")
        if not selftest(arts, drafts, convs):
            print("SELFTEST: a break was missed")
            sys.exit(1)
        print("selftest: every break caught")


if __name__ == "__main__":
    main()
