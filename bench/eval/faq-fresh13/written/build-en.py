#!/usr/bin/env python3
"""Label tables for the en evaluation set (third-hand labelling) + checks.

Writes questions.jsonl and followups.jsonl next to this file, then verifies them.
`python3 build.py --selftest` additionally applies deliberate breaks and shows
that each one is caught by the checks.
"""
import copy, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LANG = "en"
ACC_DIR = os.path.join(ROOT, LANG, "accounts")
DRAFT = os.path.join(ROOT, LANG + "-writer", "draft-%s.jsonl" % LANG)
CONV = os.path.join(ROOT, LANG + "-writer", "conversations-%s.jsonl" % LANG)

A = "answerable"; U = "unanswerable"; C = "chat"

# ---------------------------------------------------------------------------
# QUESTIONS: (line index in draft, start of question text, kind, [answer ids])
# The text snippet is only there to keep the table aligned with the draft; the
# output text is copied from the draft and checked against it.
# ---------------------------------------------------------------------------
Q = [
 # ---- en-library-thornbury -------------------------------------------
 (0,  "how do i join", A, ["joining"]),
 (1,  "lost my library card", A, ["lost-card"]),
 (2,  "how long can i keep books", A, ["loan-periods"]),
 (3,  "renew online?", A, ["renewals"]),
 (4,  "printing cost?", A, ["printing-copying-scanning"]),
 (5,  "wifi password pls", A, ["wifi"]),
 (6,  "mobile library timetable?", A, ["mobile-library"]),        # tells where the timetable is
 (7,  "fines on kids books?", A, ["overdue-charges", "membership-types"]),
 (8,  "can i reserve a book thats out", A, ["reservations"]),
 (9,  "do i need to book for rhyme time", A, ["rhymetime-storytime"]),
 (10, "What are the opening hours for the main", A, ["opening-hours"]),
 (11, "can my 4 year old have her own library", A, ["joining", "membership-types"]),
 (12, "I got an email saying I owe", A, ["overdue-charges"]),      # hard call
 (13, "the libby app keeps saying", A, ["elibrary-problems"]),
 (14, "how much does it cost to book a meeting", A, ["room-hire"]),
 (15, "can i print from my phone", A, ["print-from-own-device"]),
 (16, "do you need ID to use the computers", A, ["public-computers"]),
 (17, "is there a limit on how many books", A, ["loan-periods"]),
 (18, "Can I get audiobooks free", A, ["ebooks-eaudiobooks"]),
 (19, "whats on for kids over the summer", A, ["children-activities", "summer-reading-challenge"]),
 (20, "Hi, my mum is 87", A, ["home-library-service"]),
 (21, "ok so I renewed my books online", U, []),                  # override: website said renewed; no article explains
 (22, "im in year 12", A, ["public-computers"]),
 (23, "We're a small walking group", A, ["room-hire"]),
 (24, "Hello. I'm researching my family", A, ["local-studies"]),
 (25, "lost my card on the bus", A, ["lost-card"]),
 (26, "Just moved to Thornbury from Leeds", A, ["rhymetime-storytime"]),
 (27, "I have a Kindle Paperwhite", A, ["ebooks-eaudiobooks"]),
 (28, "Hi there, I need to print some", A, ["printing-copying-scanning", "public-computers"]),
 (29, "my daughter borrowed a picture book", A, ["lost-damaged-items"]),
 (30, "does the library have a copy of the 1974", U, []),
 (31, "which would you say is better", U, []),
 (32, "is the parking outside the Westgate", U, []),
 (33, "my book club wants to invite", U, []),
 (34, "can I film a short scene", U, []),
 (35, "why did you get rid of the big armchairs", U, []),
 (36, "could you recommend a good book about grief", U, []),
 (37, "is the librarian with the red glasses", U, []),
 (38, "thank you so much for sorting", C, []),
 (39, "hello", C, []),
 (40, "the kids LOVED the dinosaur", C, []),
 (41, "honestly the wifi at the main library", C, []),
 # ---- en-carhire-swiftway ---------------------------------------------
 (42, "min age to hire?", A, ["driver-age"]),
 (43, "do u take debit cards", A, ["debit-cards"]),
 (44, "young driver fee?", A, ["driver-age"]),
 (45, "can i add my wife as a driver", A, ["additional-drivers"]),
 (46, "child seat price", A, ["extras-child-seats"]),
 (47, "van for house move how much", U, []),                      # override: no hire prices anywhere
 (48, "deposit still not back", A, ["security-deposit"]),
 (49, "put petrol in a diesel help", A, ["wrong-fuel"]),
 (50, "extra driver cost?", A, ["additional-drivers"]),
 (51, "flight delayed, will u wait", A, ["airport-branches"]),
 (52, "What documents do I need to bring", A, ["what-to-bring"]),
 (53, "is a US driving licence ok", A, ["overseas-licence"]),
 (54, "how long does it take for the deposit", A, ["security-deposit"]),
 (55, "can i pick up at the airport and drop off", A, ["one-way-rentals"]),
 (56, "What's the difference between the standard excess", A, ["excess-protection-options", "included-protection"]),
 (57, "Can I take the car over to France", A, ["driving-abroad"]),
 (58, "i got charged £65 for fuel", A, ["fuel-policy"]),
 (59, "do i need a credit card or can i pay with apple pay", A, ["debit-cards"]),  # hard call
 (60, "what happens if I bring the car back a day early", A, ["returning-early"]),
 (61, "can i drive a luton van", A, ["van-hire", "uk-licence"]),
 (62, "Hi, I'm flying in from Toronto", A, ["what-to-bring"]),     # hard call
 (63, "returned the car on monday", A, ["security-deposit"]),
 (64, "Someone has clipped the wing mirror", A, ["damage-during-rental", "damage-charges"]),
 (65, "I'm 23 and I've had my full licence", A, ["driver-age", "additional-drivers"]),
 (66, "We're moving flat on Saturday", A, ["van-hire", "included-protection"]),
 (67, "Running really late, the ferry", A, ["city-branches"]),
 (68, "The car's broken down on the motorway", A, ["accidents-breakdowns"]),
 (69, "Got a letter today saying there's a £40", A, ["fines-tolls"]),
 (70, "My own car is in the garage", U, []),                       # override: credit hire / billing insurer not covered
 (71, "booked a compact with a child seat", A, ["extras-child-seats"]),
 (72, "is there anywhere decent to eat", U, []),
 (73, "whats the quickest route", U, []),
 (74, "can I use the car for a track day", U, []),
 (75, "can we hire one of your cars for our wedding", U, []),
 (76, "left my sunglasses", U, []),
 (77, "would you recommend an automatic or manual", U, []),
 (78, "is it ok to sleep in the van", U, []),
 (79, "will a double buggy and a folding wheelchair", U, []),
 (80, "hi", C, []),
 (81, "cheers, got the car no problem", C, []),
 (82, "just want to say Dave", C, []),
 (83, "worst hire experience ever", C, []),
 # ---- en-broadband-fibrelane ------------------------------------------
 (84, "is full fibre available at my postcode", A, ["check-availability-order"]),
 (85, "internet down again", A, ["no-internet", "service-status"]),
 (86, "router flashing orange", A, ["hub-lights"]),
 (87, "how do i switch to you", A, ["switching-to-fibrelane"]),
 (88, "cost to leave early?", A, ["leaving-fibrelane"]),
 (89, "moving house", A, ["moving-home"]),
 (90, "where do i send the old router", A, ["returning-equipment", "faulty-hub"]),
 (91, "static ip?", U, []),                                        # override: no article
 (92, "why has my bill gone up", A, ["annual-price-changes"]),
 (93, "wifi not reaching upstairs", A, ["wifi-coverage"]),
 (94, "What actually happens on installation day", A, ["full-fibre-installation", "preparing-for-installation"]),
 (95, "Will my home phone still work", A, ["digital-voice"]),
 (96, "Do I need to cancel with Sky myself", A, ["switching-to-fibrelane"]),
 (97, "paying for 500mb and getting 40", A, ["slow-broadband", "speed-test"]),
 (98, "my first bill is nearly double", A, ["understanding-your-bill"]),
 (99, "I missed my direct debit this month", A, ["missed-payment", "paying-your-bill"]),
 (100, "Can I keep my phone number when I move over", A, ["switching-to-fibrelane"]),
 (101, "whats the diffrence between full fibre", A, ["packages-and-speeds", "check-availability-order"]),
 (102, "do you do mesh wifi or boosters", A, ["wifi-coverage"]),
 (103, "How do I make a formal complaint", A, ["complaints"]),
 (104, "We're renting and the landlord", A, ["preparing-for-installation", "full-fibre-installation"]),
 (105, "Hi, my mum is 82 and lives alone", A, ["digital-voice"]),
 (106, "the internet has dropped out 4 times", A, ["service-status", "no-internet"]),
 (107, "I work from home 3 days a week", A, ["wifi-coverage", "chargeable-engineer-visits"]),
 (108, "My contract ends next month", A, ["contract-end", "leaving-fibrelane"]),
 (109, "We're moving house on the 28th", A, ["moving-home"]),
 (110, "Installation was supposed to be today", A, ["changing-installation-appointment", "automatic-compensation"]),
 (111, "Got a letter saying my price is going up", A, ["annual-price-changes"]),
 (112, "I switched to Virgin last month", A, ["returning-equipment", "leaving-fibrelane"]),
 (113, "Hi, I'm thinking of signing up but I game", A, ["using-your-own-router"]),  # hard call: CGNAT/ports unanswered
 (114, "is the fibre cabinet on oak lane", U, []),
 (115, "which do you think is better for gaming", U, []),
 (116, "can the engineer move my TV aerial", U, []),
 (117, "my neighbours tree is leaning", U, []),
 (118, "is it true you're being bought out", U, []),
 (119, "could the cable be run round the back", U, []),
 (120, "does the 5GHz wifi from the router", U, []),
 (121, "whats the name of the engineer", U, []),
 (122, "hello is anyone there", C, []),
 (123, "thanks, it's back up and running", C, []),
 (124, "third outage this week", C, []),
 (125, "engineer was really polite", C, []),
]

# ---------------------------------------------------------------------------
# FOLLOWUPS: id -> (kind, first_article, followup_article)
# LEFT_OUT: id -> reason (first message not answered by a single article)
# ---------------------------------------------------------------------------
F = {
 # ---- library ----
 "thornbury-01": ("move", "loan-periods", "renewals"),
 "thornbury-02": ("stay", "opening-hours", "opening-hours"),
 "thornbury-03": ("stay", "printing-copying-scanning", "printing-copying-scanning"),
 "thornbury-04": ("offtopic", "room-hire", None),
 "thornbury-05": ("stay", "children-activities", "children-activities"),
 "thornbury-06": ("move", "elibrary-problems", "pin"),
 "thornbury-07": ("move", "overdue-charges", "paying-charges"),
 "thornbury-08": ("stay", "lost-card", "lost-card"),
 "thornbury-09": ("stay", "joining", "joining"),
 "thornbury-10": ("stay", "mobile-library", "mobile-library"),
 "thornbury-11": ("move", "renewals", "ebooks-eaudiobooks"),
 "thornbury-12": ("move", "public-computers", "wifi"),
 "thornbury-13": ("move", "joining", "overdue-charges"),
 "thornbury-14": ("offtopic", "children-activities", None),
 "thornbury-15": ("move", "reservations", "inter-library-loans"),
 "thornbury-16": ("stay", "home-library-service", "home-library-service"),
 "thornbury-17": ("stay", "room-hire", "room-hire"),
 "thornbury-18": ("move", "print-from-own-device", "printing-copying-scanning"),
 "thornbury-19": ("stay", "local-studies", "local-studies"),
 "thornbury-21": ("offtopic", "loan-periods", None),
 "thornbury-22": ("change", "wifi", "rhymetime-storytime"),
 "thornbury-23": ("change", "returning-items", "room-hire"),
 "thornbury-24": ("change", "loan-periods", "emagazines-newspapers"),
 "thornbury-25": ("another", "renewals", "renewals"),
 "thornbury-26": ("another", "children-activities", None),
 # ---- car hire ----
 "swiftway-01": ("stay", "driver-age", "driver-age"),
 "swiftway-02": ("stay", "security-deposit", "security-deposit"),
 "swiftway-03": ("stay", "late-return", "late-return"),
 "swiftway-04": ("stay", "debit-cards", "debit-cards"),
 "swiftway-05": ("stay", "extending-rental", "extending-rental"),
 "swiftway-06": ("offtopic", "wrong-fuel", None),
 "swiftway-07": ("stay", "included-protection", "included-protection"),
 "swiftway-08": ("stay", "overseas-licence", "overseas-licence"),
 "swiftway-09": ("stay", "smoking-pets-cleaning", "smoking-pets-cleaning"),
 "swiftway-10": ("stay", "driving-abroad", "driving-abroad"),
 "swiftway-11": ("stay", "extras-child-seats", "extras-child-seats"),
 "swiftway-12": ("stay", "additional-drivers", "additional-drivers"),
 "swiftway-13": ("move", "one-way-rentals", "out-of-hours-return"),
 "swiftway-14": ("stay", "what-to-bring", "what-to-bring"),
 "swiftway-15": ("move", "damage-during-rental", "damage-charges"),
 "swiftway-16": ("stay", "fines-tolls", "fines-tolls"),
 "swiftway-17": ("move", "fuel-policy", "electric-vehicles"),
 "swiftway-18": ("move", "airport-branches", "city-branches"),
 "swiftway-19": ("stay", "van-hire", "van-hire"),
 "swiftway-20": ("move", "cancellations-refunds", "changing-a-booking"),
 "swiftway-21": ("offtopic", "city-branches", None),
 "swiftway-22": ("offtopic", "excess-protection-options", None),
 "swiftway-25": ("another", "security-deposit", "damage-charges"),
 "swiftway-26": ("another", "included-protection", "included-protection"),
 # ---- broadband ----
 "fibrelane-01": ("offtopic", "check-availability-order", None),
 "fibrelane-02": ("stay", "hub-lights", "hub-lights"),
 "fibrelane-03": ("move", "no-internet", "service-status"),
 "fibrelane-04": ("move", "full-fibre-installation", "preparing-for-installation"),
 "fibrelane-05": ("stay", "understanding-your-bill", "understanding-your-bill"),
 "fibrelane-06": ("stay", "slow-broadband", "slow-broadband"),
 "fibrelane-07": ("stay", "switching-to-fibrelane", "switching-to-fibrelane"),
 "fibrelane-08": ("stay", "leaving-fibrelane", "leaving-fibrelane"),
 "fibrelane-09": ("stay", "digital-voice", "digital-voice"),
 "fibrelane-10": ("offtopic", "missed-payment", None),
 "fibrelane-11": ("stay", "wifi-coverage", "wifi-coverage"),
 "fibrelane-12": ("stay", "moving-home", "moving-home"),
 "fibrelane-13": ("stay", "returning-equipment", "returning-equipment"),
 "fibrelane-14": ("stay", "annual-price-changes", "annual-price-changes"),
 "fibrelane-15": ("offtopic", "switching-to-fibrelane", None),
 "fibrelane-16": ("move", "full-fibre-installation", "preparing-for-installation"),
 "fibrelane-17": ("move", "contract-end", "extra-help"),
 "fibrelane-18": ("offtopic", "wifi-name-password", None),
 "fibrelane-19": ("move", "service-status", "automatic-compensation"),
 "fibrelane-20": ("move", "paying-your-bill", "understanding-your-bill"),
 "fibrelane-23": ("offtopic", "packages-and-speeds", None),
 "fibrelane-25": ("another", "leaving-fibrelane", "changing-package"),
 "fibrelane-26": ("another", "wifi-coverage", "slow-broadband"),
}

LEFT_OUT = {
 "thornbury-20": "no Oakfield branch exists; opening-hours lists Central, Eastfield, Kingsmead, Holloway Green only",
 "swiftway-23": "no article gives a van hire price (van-hire gives sizes, deposit, mileage only)",
 "swiftway-24": "roof racks are not offered; extras list only a roof box, which is not what was asked",
 "fibrelane-21": "hub-lights describes solid blue only; a flashing blue light is not covered",
 "fibrelane-22": "no article explains how to log in to the app",
 "fibrelane-24": "'is my bill paid' is an account look-up; no article answers it",
}

KINDS_Q = {A, U, C}
KINDS_F = {"stay", "move", "change", "offtopic", "another"}


def load():
    arts = {}
    for fn in sorted(os.listdir(ACC_DIR)):
        if fn.endswith(".json"):
            d = json.load(open(os.path.join(ACC_DIR, fn), encoding="utf-8"))
            arts[d["id"]] = {a["id"] for a in d["articles"]}
    draft = [json.loads(l) for l in open(DRAFT, encoding="utf-8") if l.strip()]
    conv = [json.loads(l) for l in open(CONV, encoding="utf-8") if l.strip()]
    return arts, draft, conv


def build(Q, F, draft, conv):
    qrows = []
    for idx, snippet, kind, ids in Q:
        src = draft[idx] if 0 <= idx < len(draft) else {"account": None, "question": None}
        qrows.append({"account": src["account"], "question": src["question"],
                      "answer_ids": list(ids), "kind": kind, "_idx": idx, "_snip": snippet})
    frows = []
    for c in conv:
        if c["id"] in F:
            kind, fa, fu = F[c["id"]]
            frows.append({"id": c["id"], "account": c["account"], "kind": kind,
                          "first": c["first"], "first_article": fa,
                          "followup": c["followup"], "followup_article": fu})
    return qrows, frows


def check(arts, draft, conv, qrows, frows, F, LEFT_OUT):
    err = []
    # --- questions ---
    if len(qrows) != len(draft):
        err.append("questions: %d rows for %d draft lines" % (len(qrows), len(draft)))
    for i, r in enumerate(qrows):
        if r["_idx"] != i:
            err.append("questions row %d labels draft line %s (order/duplicate/missing)" % (i, r["_idx"]))
            continue
        d = draft[i]
        if r["question"] != d["question"] or r["account"] != d["account"]:
            err.append("questions %d: text/account differ from draft" % i)
        if not d["question"].startswith(r["_snip"]):
            err.append("questions %d: table snippet %r does not match draft text" % (i, r["_snip"]))
        k, ids = r["kind"], r["answer_ids"]
        if k not in KINDS_Q:
            err.append("questions %d: bad kind %r" % (i, k))
        if k == A and not (1 <= len(ids) <= 3):
            err.append("questions %d: answerable needs 1-3 ids, has %d" % (i, len(ids)))
        if k in (U, C) and ids:
            err.append("questions %d: %s must have no ids" % (i, k))
        if len(set(ids)) != len(ids):
            err.append("questions %d: duplicate ids" % i)
        for a in ids:
            if a not in arts.get(d["account"], set()):
                err.append("questions %d: id %r not in %s" % (i, a, d["account"]))
    # --- conversations ---
    conv_by_id = {c["id"]: c for c in conv}
    if len(conv_by_id) != len(conv):
        err.append("conversations: duplicate ids in writer file")
    both = set(F) & set(LEFT_OUT)
    if both:
        err.append("conversations labelled AND left out: %s" % sorted(both))
    for cid in conv_by_id:
        if cid not in F and cid not in LEFT_OUT:
            err.append("conversation %s neither labelled nor left out" % cid)
    for cid in list(F) + list(LEFT_OUT):
        if cid not in conv_by_id:
            err.append("unknown conversation id %s" % cid)
    for cid, why in LEFT_OUT.items():
        if not why.strip():
            err.append("conversation %s left out without reason" % cid)
    seen = set()
    for r in frows:
        cid = r["id"]
        if cid in seen:
            err.append("followups: %s written twice" % cid)
        seen.add(cid)
        c = conv_by_id[cid]
        if r["first"] != c["first"] or r["followup"] != c["followup"] or r["account"] != c["account"]:
            err.append("followups %s: text/account differ from writer file" % cid)
        k, fa, fu = r["kind"], r["first_article"], r["followup_article"]
        ids = arts.get(c["account"], set())
        if k not in KINDS_F:
            err.append("followups %s: bad kind %r" % (cid, k))
        if fa not in ids:
            err.append("followups %s: first_article %r not in %s" % (cid, fa, c["account"]))
        if fu is not None and fu not in ids:
            err.append("followups %s: followup_article %r not in %s" % (cid, fu, c["account"]))
        if k == "stay" and fu != fa:
            err.append("followups %s: stay must reuse first_article" % cid)
        if k in ("move", "change") and (fu is None or fu == fa):
            err.append("followups %s: %s needs a different non-null article" % (cid, k))
        if k == "offtopic" and fu is not None:
            err.append("followups %s: offtopic must have null followup_article" % cid)
    if len(frows) + len(LEFT_OUT) != len(conv):
        err.append("conversations: %d labelled + %d left out != %d" % (len(frows), len(LEFT_OUT), len(conv)))
    return err


def write(qrows, frows):
    with open(os.path.join(HERE, "questions.jsonl"), "w", encoding="utf-8") as f:
        for r in qrows:
            f.write(json.dumps({k: r[k] for k in ("account", "question", "answer_ids", "kind")},
                               ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "followups.jsonl"), "w", encoding="utf-8") as f:
        for r in frows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def reread_check(arts, draft, conv):
    """Check the written files themselves (not the in-memory rows)."""
    err = []
    qs = [json.loads(l) for l in open(os.path.join(HERE, "questions.jsonl"), encoding="utf-8")]
    if [(q["account"], q["question"]) for q in qs] != [(d["account"], d["question"]) for d in draft]:
        err.append("questions.jsonl: lines/order/text differ from draft")
    fs = [json.loads(l) for l in open(os.path.join(HERE, "followups.jsonl"), encoding="utf-8")]
    order = [c["id"] for c in conv if c["id"] in F]
    if [x["id"] for x in fs] != order:
        err.append("followups.jsonl: ids/order differ from table")
    return err


def counts(qrows, frows, conv):
    from collections import Counter
    qc = Counter((r["account"], r["kind"]) for r in qrows)
    fc = Counter((r["account"], r["kind"]) for r in frows)
    lo = Counter(next(c["account"] for c in conv if c["id"] == cid) for cid in LEFT_OUT)
    accs = sorted({r["account"] for r in qrows})
    print("questions:")
    for a in accs:
        print("  %-24s " % a + "  ".join("%s=%d" % (k, qc[(a, k)]) for k in (A, U, C)))
    print("  total " + "  ".join("%s=%d" % (k, sum(v for (x, kk), v in qc.items() if kk == k)) for k in (A, U, C)))
    print("followups:")
    for a in accs:
        print("  %-24s " % a + "  ".join("%s=%d" % (k, fc[(a, k)]) for k in ("stay", "move", "change", "offtopic", "another"))
              + "  left_out=%d" % lo[a])
    print("  total " + "  ".join("%s=%d" % (k, sum(v for (x, kk), v in fc.items() if kk == k))
                                 for k in ("stay", "move", "change", "offtopic", "another"))
          + "  left_out=%d" % len(LEFT_OUT))


def selftest(arts, draft, conv):
    """Deliberate breaks: each must produce at least one error."""
    breaks = []
    def qmut(fn):
        q2 = copy.deepcopy(Q); fn(q2); return q2, F, LEFT_OUT
    def fmut(fn):
        f2 = copy.deepcopy(F); l2 = dict(LEFT_OUT); fn(f2, l2); return Q, f2, l2
    breaks.append(("unknown article id", qmut(lambda q: q.__setitem__(0, (0, "how do i join", A, ["join-the-library"])))))
    breaks.append(("id from another account", qmut(lambda q: q.__setitem__(42, (42, "min age to hire?", A, ["joining"])))))
    breaks.append(("answerable with no ids", qmut(lambda q: q.__setitem__(1, (1, "lost my library card", A, [])))))
    breaks.append(("unanswerable with an id", qmut(lambda q: q.__setitem__(91, (91, "static ip?", U, ["hub-lights"])))))
    breaks.append(("chat with an id", qmut(lambda q: q.__setitem__(39, (39, "hello", C, ["joining"])))))
    breaks.append(("4 ids", qmut(lambda q: q.__setitem__(85, (85, "internet down again", A, ["no-internet", "service-status", "hub-lights", "contact-us"])))))
    breaks.append(("draft line dropped", qmut(lambda q: q.pop(50))))
    breaks.append(("two rows swapped", qmut(lambda q: q.__setitem__(slice(3, 5), [q[4], q[3]]))))
    breaks.append(("draft line labelled twice", qmut(lambda q: q.insert(10, q[9]))))
    breaks.append(("table out of step with text", qmut(lambda q: q.__setitem__(5, (5, "wifi passwrod", A, ["wifi"])))))
    breaks.append(("stay with a different article", fmut(lambda f, l: f.__setitem__("thornbury-02", ("stay", "opening-hours", "holiday-closures")))))
    breaks.append(("move with the same article", fmut(lambda f, l: f.__setitem__("swiftway-13", ("move", "one-way-rentals", "one-way-rentals")))))
    breaks.append(("change with null", fmut(lambda f, l: f.__setitem__("thornbury-22", ("change", "wifi", None)))))
    breaks.append(("offtopic with an article", fmut(lambda f, l: f.__setitem__("fibrelane-18", ("offtopic", "wifi-name-password", "extra-help")))))
    breaks.append(("conversation neither labelled nor left out", fmut(lambda f, l: f.pop("swiftway-03"))))
    breaks.append(("conversation labelled and left out", fmut(lambda f, l: l.__setitem__("thornbury-02", "dup"))))
    breaks.append(("bad kind", fmut(lambda f, l: f.__setitem__("fibrelane-02", ("same", "hub-lights", "hub-lights")))))
    breaks.append(("first_article from another account", fmut(lambda f, l: f.__setitem__("fibrelane-05", ("stay", "renewals", "renewals")))))
    # text changed in the output rows
    def textbreak():
        qrows, frows = build(Q, F, draft, conv)
        qrows[7]["question"] = qrows[7]["question"].upper()
        frows[0]["followup"] += "?"
        return check(arts, draft, conv, qrows, frows, F, LEFT_OUT)
    ok = True
    for name, (q2, f2, l2) in breaks:
        qrows, frows = build(q2, f2, draft, conv)
        e = check(arts, draft, conv, qrows, frows, f2, l2)
        print("  break %-44s -> %s" % (name, ("CAUGHT: " + e[0]) if e else "NOT CAUGHT"))
        ok &= bool(e)
    e = textbreak()
    print("  break %-44s -> %s" % ("question/follow-up text edited", ("CAUGHT: " + e[0]) if e else "NOT CAUGHT"))
    ok &= bool(e)
    return ok


def main():
    arts, draft, conv = load()
    qrows, frows = build(Q, F, draft, conv)
    err = check(arts, draft, conv, qrows, frows, F, LEFT_OUT)
    if err:
        print("ERRORS:"); [print("  " + e) for e in err]; sys.exit(1)
    write(qrows, frows)
    err = reread_check(arts, draft, conv)
    if err:
        print("ERRORS:"); [print("  " + e) for e in err]; sys.exit(1)
    print("OK: %d question lines, %d follow-ups written, %d conversations left out"
          % (len(qrows), len(frows), len(LEFT_OUT)))
    counts(qrows, frows, conv)
    if "--selftest" in sys.argv:
        print("self-test (deliberate breaks):")
        if not selftest(arts, draft, conv):
            print("SELF-TEST FAILED"); sys.exit(1)
        print("all deliberate breaks caught")


if __name__ == "__main__":
    main()
