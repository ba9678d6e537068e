#!/usr/bin/env python3
"""Labels for the English FAQ evaluation set (third-hand labelling).

Writes questions.jsonl and followups.jsonl next to this file, then verifies them.
Run:  python3 build.py            -> build + verify + self-test of the checks
      python3 build.py --no-selftest
"""
import copy, json, os, sys, collections

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LANG = "en"
ACC_DIR = os.path.join(ROOT, LANG, "accounts")
DRAFT = os.path.join(ROOT, LANG + "-writer", "draft-%s.jsonl" % LANG)
CONVS = os.path.join(ROOT, LANG + "-writer", "conversations-%s.jsonl" % LANG)

A = "en-airport-kestrelford"; M = "en-mealkit-larkspoon"; S = "en-studenthomes-millrace"
ANS, UNA, CHAT = "answerable", "unanswerable", "chat"

# ---------------------------------------------------------------------------
# Question labels: one row per draft line, in order.
# (line index, start of the question text, kind, answer_ids, note)
# note is required whenever the label overrides the writer's intent
# (question->answerable, unlikely->unanswerable, chat->chat) and is used for hard calls.
# ---------------------------------------------------------------------------
Q = [
# --- Kestrelford Airport -------------------------------------------------
(0,  "how early should i arrive", ANS, ["when-to-arrive"], ""),
(1,  "vapes in hand luggage", ANS, ["smoking-and-vaping"], ""),
(2,  "dropping my daughter and her mates", ANS, ["free-drop-off-p4", "drop-off-zone"], "drop-off-zone also names the free P4 area and explains the fee; P4 shuttle runs from 03:30 so a 4am drop works"),
(3,  "has the flight from malaga landed", ANS, ["flight-status"], "HARD: no live data, but flight-status tells them exactly where/how to check (website Flights, STATUS text)"),
(4,  "lost my phone at security this morning", ANS, ["lost-property-terminal"], "items found at security go to Lost Property; article gives the report form (no phone number, but answers how to report)"),
(5,  "my mum is 84 and cant really walk", ANS, ["special-assistance"], ""),
(6,  "is there a cash machine after security", UNA, [], "OVERRIDE-ish: writer 'question'; no article mentions cash machines"),
(7,  "can u change money at the airport", UNA, [], "writer 'question'; no currency-exchange article"),
(8,  "whats the most liquid i can take", ANS, ["liquids-at-security"], ""),
(9,  "flying to tenerife with 2 kids", ANS, ["medicines-and-baby-food"], "HARD: formula/baby food part fully answered; the baby-changing part is not answered by any article"),
(10, "is there a prayer room", UNA, [], "writer 'question'; no article mentions a prayer room"),
(11, "how much is parking for a week", ANS, ["long-stay-p4", "short-stay-p1"], "long-stay-p4 gives weekly prices; short-stay-p1 gives daily/extra-day rates and the pre-book-from-£19/day line"),
(12, "picking my dad up tomorrow night", ANS, ["picking-up-passengers"], "P4 free bays not added: shuttle stops 23:30, passenger out ~00:15"),
(13, "why is the dublin flight delayed", UNA, [], "HARD: writer 'question'; flight-delays/flight-status mention delays but no article can say WHY a flight is late"),
(14, "landed from alicante about an hour ago", ANS, ["delayed-baggage"], "HARD: article's process is 'report at the desk before leaving the reclaim hall' and they are home; still gives PIR/airline-claim route, best available"),
(15, "boarding pass on phone ok", UNA, [], "writer 'question'; no article covers mobile boarding passes"),
(16, "my son is autistic and gets really overwhelmed", ANS, ["quiet-lanyard", "special-assistance"], "special-assistance explicitly covers hidden conditions through security"),
(17, "can i take a powerbank on the plane", UNA, [], "writer 'question'; only wheelchair and vape batteries are covered, not power banks"),
(18, "is there free wifi", ANS, ["free-wifi"], ""),
(19, "wheres the short stay car park", ANS, ["short-stay-p1"], "'closest car park, two minutes' walk along the covered walkway'"),
(20, "left my coat on the plane yesterday", ANS, ["left-on-aircraft"], ""),
(21, "what time does the terminal open in the morning", ANS, ["terminal-opening-hours"], ""),
(22, "can i bring food through security", UNA, [], "HARD: writer 'question'; liquids article lists sauces etc. but nothing says whether solid food is allowed (conv kestrelford-26 confirms the sandwich reading)"),
(23, "is there a bus to the airport from town", ANS, ["buses-and-trains"], ""),
(24, "im flying for work next week, just hand luggage", ANS, ["when-to-arrive"], "hand-luggage 45-min rule and the 05:00-07:00 queue warning"),
(25, "do you have baby changing", UNA, [], "writer 'question'; no article mentions baby changing"),
(26, "we live an hour away and have a 6am flight", ANS, ["terminal-opening-hours"], ""),
(27, "my flight was cancelled last night", ANS, ["cancelled-flights"], ""),
(28, "wat time does check in close", ANS, ["when-to-arrive"], ""),
(29, "can i bring my walking stick on board", ANS, ["wheelchairs-mobility-aids"], ""),
(30, "whats the best place to eat in the terminal", UNA, [], ""),
(31, "the security guy with the beard", UNA, [], ""),
(32, "can i bring my late husbands ashes", UNA, [], ""),
(33, "is fast track worth paying for on a tuesday", UNA, [], "HARD: fast-track gives price/typical wait and when-to-arrive gives peak times (05-07, Fridays), but nothing says whether Tuesday mornings are busy"),
(34, "can i fly my drone", UNA, [], ""),
(35, "can you recommend a cheap hotel near the airport", ANS, ["terminal-opening-hours"], "OVERRIDE: writer 'unlikely'; terminal-opening-hours names Fenwick Lodge and Runway Inn, 5 min by hotel shuttle (price not given)"),
(36, "my grandad was an engineer at kestrelford", UNA, [], ""),
(37, "my flight home lands at 1am", ANS, ["taxis"], "OVERRIDE: writer 'unlikely'; taxis names the council-licensed rank firm, says cars meet every flight incl. late ones, and lists fares"),
(38, "hiya", CHAT, [], ""),
(39, "thanks so much, your staff were brilliant", CHAT, [], ""),
(40, "whats the weather like in lanzarote", CHAT, [], "small talk, not an airport question"),
(41, "ok cheers", CHAT, [], ""),
# --- Larkspoon Kitchen ----------------------------------------------------
(42, "skip next week pls", ANS, ["skip-a-week"], ""),
(43, "can i pause my box", ANS, ["pause-deliveries"], ""),
(44, "delivery was supposed to be today", ANS, ["box-not-arrived"], ""),
(45, "were off to cornwall for 2 weeks", ANS, ["order-deadline", "skip-a-week"], "'how far in advance' = order-deadline (23:59, 5 days before); skip-a-week says skip up to 8 weeks ahead, before the deadline"),
(46, "how do i cancel", ANS, ["cancel-subscription"], ""),
(47, "the chicken was warm when it arrived", ANS, ["damaged-or-spoiled"], ""),
(48, "cream missing from box", ANS, ["missing-ingredients"], ""),
(49, "its just me now since my partner moved out", ANS, ["change-your-plan"], ""),
(50, "when do i get charged", ANS, ["when-you-are-charged"], ""),
(51, "can i change my delivery day", ANS, ["change-delivery-day"], ""),
(52, "do u do veggie boxes", ANS, ["dietary-preferences"], ""),
(53, "my husband is vegetarian and im not", ANS, ["dietary-preferences"], ""),
(54, "my son has a nut allergy", ANS, ["allergens"], ""),
(55, "moving house next week", ANS, ["change-address"], ""),
(56, "can i gift a box to my friend", ANS, ["one-off-gift-box"], ""),
(57, "my sister gave me a card with a code", ANS, ["discount-codes"], "HARD: discount-codes says 'not valid' codes are often new-customers-only and can't be reissued, which answers 'can't use it at all'; it might be a gift card, but gift cards are not new-customer-only"),
(58, "just checked my bank and youve taken", ANS, ["refunds"], "HARD: refunds gives the 'charged when you shouldn't have been' route (contact Customer Care with the bank-statement date); 'will a box still turn up' is not answered"),
(59, "what time does the driver come", ANS, ["delivery-slots"], ""),
(60, "can the box be left with a neighbour", ANS, ["safe-place"], ""),
(61, "wat do i do with the ice packs", ANS, ["recycling-packaging", "packaging-collection"], "both answer: dispose/recycle, or hand back to driver where available"),
(62, "are the boxes recyclable", ANS, ["recycling-packaging"], ""),
(63, "i have coeliac and have to be really careful", ANS, ["dietary-preferences", "allergens"], "dietary-preferences: no GF plan, not suitable for coeliacs; allergens: 14 allergens labelled on everything"),
(64, "how long does the fish keep", ANS, ["storing-ingredients"], ""),
(65, "can i add extra meals this week", ANS, ["change-your-plan"], "'Add a recipe' for one week"),
(66, "is it cheaper per meal if i get more", ANS, ["plans-and-prices"], ""),
(67, "my toddler is 2 and eats most things", UNA, [], "HARD/OVERRIDE: writer 'question'; nothing on salt/spice for toddlers or leaving out chilli - dietary-preferences only lists a 'Family friendly' filter"),
(68, "how do i pick my meals for next week", ANS, ["choosing-recipes"], ""),
(69, "box came but the whole bag for the katsu", ANS, ["missing-ingredients"], "'Can't make this recipe' -> whole recipe refunded"),
(70, "whens the cut off for changing my order", ANS, ["order-deadline"], ""),
(71, "came home from work and the box had been left out", ANS, ["damaged-or-spoiled"], "warm/soaked box -> report same day, full refund, don't eat chilled items; replacement not addressed"),
(72, "which recipe this week is the least spicy", UNA, [], ""),
(73, "the lamb kofta from 2 weeks ago", UNA, [], "recipe-cards-nutrition: past recipes in My recipes, but nothing about bringing a recipe back to the menu"),
(74, "your driver threw the box over my side gate", UNA, [], "a complaint about a driver; safe-place instructions don't address it"),
(75, "can i get the recipe cards in large print", UNA, [], "recipe-cards-nutrition mentions Cook mode but not large print"),
(76, "what wine goes with the miso salmon", UNA, [], ""),
(77, "can i do the chicken thighs in the air fryer", UNA, [], ""),
(78, "can i freeze the beef ragu after ive cooked it", UNA, [], "storing-ingredients covers freezing RAW meat only"),
(79, "i run a small cafe", UNA, [], ""),
(80, "hello", CHAT, [], ""),
(81, "the thai green curry last night was unreal", CHAT, [], ""),
(82, "lol my cat keeps sleeping in the empty boxes", CHAT, [], ""),
(83, "thanks thats sorted", CHAT, [], ""),
# --- Millrace Student Homes -----------------------------------------------
(84, "how much is the deposit", ANS, ["security-deposit"], ""),
(85, "when is rent due", ANS, ["rent-instalments"], ""),
(86, "do i need a guarantor", ANS, ["guarantor", "no-guarantor"], "no-guarantor answers the 'do I need one' half (no, if you pay upfront or use Brightbridge)"),
(87, "im an international student from nigeria", ANS, ["no-guarantor"], ""),
(88, "lost my room key on a night out", ANS, ["locked-out"], ""),
(89, "can my boyfriend stay over for the weekend", ANS, ["overnight-guests"], ""),
(90, "the shower in our flat has been broken", ANS, ["maintenance-requests"], "no hot water = urgent, within 24h"),
(91, "hi my daughter is starting at brackenport uni", ANS, ["guarantor"], ""),
(92, "will i get my deposit back", ANS, ["security-deposit", "deposit-deductions"], ""),
(93, "where do parcels go", ANS, ["parcels-and-post"], ""),
(94, "how do the washing machines work", ANS, ["laundry"], ""),
(95, "the people in the flat above", ANS, ["noise-complaints"], ""),
(96, "can i leave early", ANS, ["early-release"], ""),
(97, "can i choose who i live with", UNA, [], "HARD/OVERRIDE: writer 'question'; only returning residents' February group rebooking and friend room-swaps are described, nothing for a new booking"),
(98, "can i have a cat", UNA, [], "writer 'question'; no pets article"),
(99, "my visa got refused last week", ANS, ["cancel-before-move-in"], ""),
(100, "need a letter confirming my address", UNA, [], "writer 'question'; no article about address letters"),
(101, "is wifi included", ANS, ["wifi-internet", "whats-included"], ""),
(102, "are bills included in the rent", ANS, ["whats-included", "room-types-prices"], "room-types-prices: 'Prices are per week and include bills'"),
(103, "when can i move in", ANS, ["moving-in"], ""),
(104, "im dropping out of uni at christmas", ANS, ["early-release"], ""),
(105, "what time do i have to be out by", ANS, ["moving-out"], ""),
(106, "whats the diff between the en suite and the studio", ANS, ["room-types-prices"], ""),
(107, "heating not working in my room", ANS, ["maintenance-requests"], ""),
(108, "arriving on a late flight from kuala lumpur", ANS, ["late-arrival"], ""),
(109, "can i pay rent monthly", ANS, ["rent-instalments"], ""),
(110, "is there parking", ANS, ["parking-and-bikes"], ""),
(111, "do u have any rooms left for this year", UNA, [], "HARD/OVERRIDE: writer 'question'; booking-a-room says you can book any time but no article states availability"),
(112, "one of my flatmates moved out and left the kitchen", ANS, ["cleaning-and-inspections"], ""),
(113, "moving out next month and the carpet in my room", ANS, ["deposit-deductions"], "HARD: explains inspection, typical deductions and dispute route; carpet stains and their cost are not listed"),
(114, "which of the three halls is closest", UNA, [], ""),
(115, "the guy on reception this morning", UNA, [], ""),
(116, "can i paint my room", UNA, [], ""),
(117, "is there a good gym near the riverside", UNA, [], ""),
(118, "my flatmate keeps eating my food", ANS, ["flatmate-issues"], "OVERRIDE: writer 'unlikely'; flatmate-issues names borrowed food and offers flat agreement + Resident Life mediation"),
(119, "can i sell homemade cakes", UNA, [], ""),
(120, "whats the best sim card", UNA, [], ""),
(121, "can i film a tiktok", UNA, [], ""),
(122, "hey", CHAT, [], ""),
(123, "thank you for fixing the heating", CHAT, [], ""),
(124, "anyone else in block b awake", CHAT, [], ""),
(125, "good morning have a nice day", CHAT, [], ""),
]

# ---------------------------------------------------------------------------
# Conversation labels: id -> (kind, first_article, followup_article, note)
# ---------------------------------------------------------------------------
C = {
"kestrelford-01": ("stay", "long-stay-p4", "long-stay-p4", ""),
"kestrelford-02": ("stay", "when-to-arrive", "when-to-arrive", ""),
"kestrelford-03": ("stay", "drop-off-zone", "drop-off-zone", ""),
"kestrelford-04": ("stay", "liquids-at-security", "liquids-at-security", ""),
"kestrelford-06": ("stay", "special-assistance", "special-assistance", ""),
"kestrelford-07": ("stay", "picking-up-passengers", "picking-up-passengers", "HARD: writer probably meant the drop-off zone (10-min charge), but you cannot pick up there; picking-up-passengers gives P1 £7 for under an hour / P4 free 30 min"),
"kestrelford-09": ("stay", "terminal-opening-hours", "terminal-opening-hours", "HARD: one opening time (03:30) with no weekday exceptions is read as 'same on Sundays'"),
"kestrelford-10": ("offtopic", "lost-property-terminal", None, "OVERRIDE stay->offtopic: article only says 'collect in person with photo ID, or we post it'; nothing on someone else collecting"),
"kestrelford-11": ("stay", "delayed-baggage", "delayed-baggage", "OVERRIDE move->stay: delayed-baggage itself says bags are delivered to your home free"),
"kestrelford-12": ("offtopic", "medicines-and-baby-food", None, "OVERRIDE move->offtopic: no article mentions warming bottles"),
"kestrelford-13": ("offtopic", "special-assistance", None, "OVERRIDE move->offtopic: nothing says whether a companion can go airside to the gate"),
"kestrelford-14": ("move", "flight-status", "picking-up-passengers", "meeting point beside the cafe opposite the customs exit"),
"kestrelford-15": ("stay", "long-stay-p4", "long-stay-p4", "OVERRIDE move->stay: long-stay-p4 describes the free shuttle"),
"kestrelford-17": ("stay", "cancelled-flights", "cancelled-flights", "OVERRIDE move->stay: cancelled-flights says parking bookings are refunded"),
"kestrelford-18": ("move", "buses-and-trains", "taxis", ""),
"kestrelford-20": ("stay", "quiet-lanyard", "quiet-lanyard", "OVERRIDE move->stay: quiet-lanyard mentions the quiet room airside next to Gate 4"),
"kestrelford-21": ("change", "short-stay-p1", "wheelchairs-mobility-aids", ""),
"kestrelford-22": ("change", "free-wifi", "left-on-aircraft", ""),
"kestrelford-23": ("offtopic", "when-to-arrive", None, "OVERRIDE change->offtopic: no currency-exchange article"),
"kestrelford-24": ("change", "liquids-at-security", "smoking-and-vaping", "'There's no smoking area airside'"),
"kestrelford-25": ("another", "drop-off-zone", "picking-up-passengers", ""),
"larkspoon-01": ("stay", "skip-a-week", "skip-a-week", ""),
"larkspoon-02": ("stay", "when-you-are-charged", "when-you-are-charged", ""),
"larkspoon-03": ("stay", "order-deadline", "order-deadline", ""),
"larkspoon-04": ("move", "change-delivery-day", "when-you-are-charged", "OVERRIDE stay->move: change-delivery-day only says the deadline moves; the charge day (day after deadline) is in when-you-are-charged"),
"larkspoon-05": ("stay", "box-not-arrived", "box-not-arrived", ""),
"larkspoon-06": ("stay", "damaged-or-spoiled", "damaged-or-spoiled", "cheese is a chilled item -> don't eat"),
"larkspoon-07": ("stay", "discount-codes", "discount-codes", "'only one code can be active'"),
"larkspoon-08": ("stay", "pause-deliveries", "pause-deliveries", ""),
"larkspoon-09": ("stay", "where-we-deliver", "where-we-deliver", ""),
"larkspoon-10": ("stay", "safe-place", "safe-place", ""),
"larkspoon-11": ("stay", "cancel-subscription", "cancel-subscription", "OVERRIDE move->stay: cancel-subscription says locked boxes still arrive and are charged"),
"larkspoon-12": ("stay", "missing-ingredients", "missing-ingredients", "OVERRIDE move->stay: missing-ingredients gives credit instantly / card 3-5 working days"),
"larkspoon-13": ("move", "change-your-plan", "market-extras", ""),
"larkspoon-14": ("stay", "change-address", "change-address", "OVERRIDE move->stay: change-address says days depend on postcode and you re-choose"),
"larkspoon-15": ("stay", "recycling-packaging", "recycling-packaging", "OVERRIDE move->stay: recycling-packaging point 3 covers ice packs (packaging-collection would also do)"),
"larkspoon-16": ("stay", "dietary-preferences", "dietary-preferences", "OVERRIDE move->stay: same article says at least 4 vegan options"),
"larkspoon-17": ("stay", "one-off-gift-box", "one-off-gift-box", "OVERRIDE move->stay: 'You can pick the recipes yourself'"),
"larkspoon-18": ("stay", "allergens", "allergens", "OVERRIDE move->stay: allergens says where allergen info is shown"),
"larkspoon-19": ("move", "change-your-plan", "plans-and-prices", ""),
"larkspoon-20": ("move", "damaged-or-spoiled", "box-not-arrived", "HARD: 'no replacement box the same week, every box is packed to order' is only stated in box-not-arrived"),
"larkspoon-21": ("offtopic", "skip-a-week", None, "OVERRIDE change->offtopic: no jobs article"),
"larkspoon-22": ("change", "recipe-cards-nutrition", "refer-a-friend", "HARD: first message answered by recipe-cards-nutrition (recipes and Cook mode are in the app); no 'missing card' procedure as such"),
"larkspoon-23": ("change", "change-address", "dietary-preferences", "HARD: 'do you do a kids option' answered by the 'Family friendly' filter (cf. draft line 67 left unanswerable because it asks about salt/spice)"),
"larkspoon-24": ("change", "when-you-are-charged", "one-off-gift-box", ""),
"larkspoon-25": ("another", "choosing-recipes", "change-your-plan", ""),
"larkspoon-26": ("offtopic", "plans-and-prices", None, "OVERRIDE more->offtopic: not a rejection but a new ask; no article mentions a student discount"),
"millrace-01": ("stay", "security-deposit", "security-deposit", "'Every resident pays' -> per person"),
"millrace-02": ("move", "rent-instalments", "missed-rent-payment", "OVERRIDE stay->move: late payment is covered by missed-rent-payment"),
"millrace-03": ("stay", "overnight-guests", "overnight-guests", ""),
"millrace-04": ("stay", "locked-out", "locked-out", ""),
"millrace-05": ("stay", "guarantor", "guarantor", "'must live in the UK'"),
"millrace-06": ("stay", "whats-included", "whats-included", ""),
"millrace-07": ("stay", "moving-in", "moving-in", "keys from the tenancy start date"),
"millrace-08": ("stay", "parcels-and-post", "parcels-and-post", ""),
"millrace-09": ("stay", "laundry", "laundry", ""),
"millrace-10": ("stay", "early-release", "early-release", "£50 admin fee"),
"millrace-11": ("stay", "security-deposit", "security-deposit", "OVERRIDE move->stay: return timing is in security-deposit"),
"millrace-12": ("stay", "maintenance-requests", "maintenance-requests", "OVERRIDE move->stay: 'let us know if we can enter while you're out'"),
"millrace-13": ("move", "guarantor", "no-guarantor", ""),
"millrace-14": ("move", "moving-out", "summer-storage", ""),
"millrace-15": ("move", "noise-complaints", "room-transfer", ""),
"millrace-17": ("stay", "parking-and-bikes", "parking-and-bikes", "OVERRIDE move->stay: same article covers bike storage"),
"millrace-18": ("stay", "cancel-before-move-in", "cancel-before-move-in", "OVERRIDE move->stay: same article lists the evidence"),
"millrace-20": ("offtopic", "rent-instalments", None, "OVERRIDE move->offtopic: nothing on a third party paying"),
"millrace-21": ("offtopic", "maintenance-requests", None, "HARD/OVERRIDE change->offtopic: parcels-and-post says nothing about parcels for/collected by someone else"),
"millrace-22": ("offtopic", "rent-instalments", None, "OVERRIDE change->offtopic: no pets article"),
"millrace-23": ("offtopic", "wifi-internet", None, "HARD/OVERRIDE change->offtopic: locked-out covers lost fobs and lock-outs, not a faulty key card"),
"millrace-24": ("offtopic", "rebooking-next-year", None, "OVERRIDE change->offtopic: no gym article"),
"millrace-25": ("another", "maintenance-requests", "maintenance-requests", "HARD: the rejected article itself says 'Damage you've caused yourself may be charged'"),
"millrace-26": ("offtopic", "early-release", None, "OVERRIDE more->offtopic: no article mentions subletting; early-release (replacement tenant) is what they already read"),
}
LEFT_OUT = {
"kestrelford-05": "first message (prayer room): no article",
"kestrelford-08": "first message (power bank): no article",
"kestrelford-16": "first message (currency exchange): no article",
"kestrelford-19": "first message (baby changing): no article",
"kestrelford-26": "first message (food through security): no article covers solid food",
"millrace-16": "first message (choosing flatmates): no article answers it for a new booking",
"millrace-19": "first message (letter confirming address): no article",
}

KINDS_Q = {ANS, UNA, CHAT}
KINDS_C = {"stay", "move", "change", "offtopic", "another"}
INTENT_TO_KIND = {"question": ANS, "unlikely": UNA, "chat": CHAT}
CINTENT_TO_KIND = {"stay": "stay", "move": "move", "change": "change", "more": "another"}


def load_inputs():
    accounts = {}
    for f in sorted(os.listdir(ACC_DIR)):
        d = json.load(open(os.path.join(ACC_DIR, f)))
        accounts[d["id"]] = {a["id"] for a in d["articles"]}
    draft = [json.loads(l) for l in open(DRAFT, encoding="utf-8") if l.strip()]
    convs = [json.loads(l) for l in open(CONVS, encoding="utf-8") if l.strip()]
    return accounts, draft, convs


def make_rows(draft, convs, Q, C):
    qrows = []
    for (i, snip, kind, ids, note) in Q:
        d = draft[i]
        qrows.append({"account": d["account"], "question": d["question"],
                      "answer_ids": list(ids), "kind": kind})
    crows = []
    for c in convs:
        if c["id"] in C:
            kind, fa, fu, note = C[c["id"]]
            crows.append({"id": c["id"], "account": c["account"], "kind": kind,
                          "first": c["first"], "first_article": fa,
                          "followup": c["followup"], "followup_article": fu})
    return qrows, crows


def check(accounts, draft, convs, Q, C, LEFT_OUT, qrows, crows):
    """Return a list of error strings (empty = all good)."""
    err = []
    # --- question table vs draft ---
    if [q[0] for q in Q] != list(range(len(draft))):
        err.append("Q table indices are not exactly 0..%d in order" % (len(draft) - 1))
    for (i, snip, kind, ids, note) in Q:
        if 0 <= i < len(draft) and not draft[i]["question"].startswith(snip):
            err.append("Q[%d]: snippet %r does not match draft text" % (i, snip))
        if 0 <= i < len(draft):
            if INTENT_TO_KIND[draft[i]["intent"]] != kind and not note:
                err.append("Q[%d]: overrides writer intent without a note" % i)
    # --- question rows ---
    if len(qrows) != len(draft):
        err.append("questions: %d rows for %d draft lines" % (len(qrows), len(draft)))
    for n, (r, d) in enumerate(zip(qrows, draft)):
        if set(r) != {"account", "question", "answer_ids", "kind"}:
            err.append("q%d: wrong fields %s" % (n, sorted(r)))
        if r.get("question") != d["question"]:
            err.append("q%d: question text changed or out of order" % n)
        if r.get("account") != d["account"]:
            err.append("q%d: account changed" % n)
        k, ids = r.get("kind"), r.get("answer_ids")
        if k not in KINDS_Q:
            err.append("q%d: bad kind %r" % (n, k))
        if not isinstance(ids, list):
            err.append("q%d: answer_ids not a list" % n); continue
        if k == ANS and not (1 <= len(ids) <= 3):
            err.append("q%d: answerable needs 1-3 ids, has %d" % (n, len(ids)))
        if k in (UNA, CHAT) and ids:
            err.append("q%d: %s must have no ids" % (n, k))
        if len(set(ids)) != len(ids):
            err.append("q%d: duplicate ids" % n)
        for a in ids:
            if a not in accounts.get(r.get("account"), set()):
                err.append("q%d: id %r not in account %s" % (n, a, r.get("account")))
    # --- conversations ---
    conv_ids = [c["id"] for c in convs]
    byid = {c["id"]: c for c in convs}
    labelled = [r["id"] for r in crows]
    cnt = collections.Counter(labelled)
    for cid in conv_ids:
        n_lab = cnt.get(cid, 0) + (1 if cid in LEFT_OUT else 0) + (0 if cid in labelled else 0)
        in_c, in_lo = cid in C, cid in LEFT_OUT
        if cnt.get(cid, 0) > 1:
            err.append("%s: labelled %d times" % (cid, cnt[cid]))
        if in_c and in_lo:
            err.append("%s: both labelled and left out" % cid)
        if not in_c and not in_lo:
            err.append("%s: neither labelled nor left out" % cid)
    for cid in list(C) + list(LEFT_OUT):
        if cid not in byid:
            err.append("%s: unknown conversation id" % cid)
    if labelled != [c for c in conv_ids if c in labelled]:
        err.append("followups not in conversation order")
    for r in crows:
        cid = r["id"]; c = byid.get(cid)
        if c is None:
            continue
        if set(r) != {"id", "account", "kind", "first", "first_article", "followup", "followup_article"}:
            err.append("%s: wrong fields" % cid)
        if r["account"] != c["account"] or r["first"] != c["first"] or r["followup"] != c["followup"]:
            err.append("%s: text/account changed" % cid)
        acc = accounts.get(r["account"], set())
        k, fa, fu = r["kind"], r["first_article"], r["followup_article"]
        if k not in KINDS_C:
            err.append("%s: bad kind %r" % (cid, k))
        if fa is None or fa not in acc:
            err.append("%s: first_article %r not in account" % (cid, fa))
        if fu is not None and fu not in acc:
            err.append("%s: followup_article %r not in account" % (cid, fu))
        if k == "stay" and fu != fa:
            err.append("%s: stay must reuse first_article" % cid)
        if k in ("move", "change") and (fu is None or fu == fa):
            err.append("%s: %s needs a different non-null article" % (cid, k))
        if k == "offtopic" and fu is not None:
            err.append("%s: offtopic must have null followup_article" % cid)
        note = C.get(cid, ("", "", "", ""))[3]
        if CINTENT_TO_KIND.get(c["intent"]) != k and not note:
            err.append("%s: overrides writer intent without a note" % cid)
    # consistency: a conversation's first message that equals a draft question
    # must not be labelled unanswerable there and answered here (and vice versa).
    qkind = {(r["account"], r["question"]): r for r in qrows}
    for r in crows:
        q = qkind.get((r["account"], r["first"]))
        if q and (q["kind"] != ANS or r["first_article"] not in q["answer_ids"]):
            err.append("%s: first message labelled differently in questions.jsonl" % r["id"])
    for cid in LEFT_OUT:
        c = byid.get(cid)
        q = c and qkind.get((c["account"], c["first"]))
        if q and q["kind"] == ANS:
            err.append("%s: left out but the same text is answerable in questions" % cid)
    return err


def write(qrows, crows):
    with open(os.path.join(HERE, "questions.jsonl"), "w", encoding="utf-8") as f:
        for r in qrows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "followups.jsonl"), "w", encoding="utf-8") as f:
        for r in crows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def selftest(accounts, draft, convs):
    """Break things on purpose and make sure check() notices each break."""
    def run(Qx, Cx, LOx, mut_q=None, mut_c=None):
        qr, cr = make_rows(draft, convs, Qx, Cx)
        if mut_q: mut_q(qr)
        if mut_c: mut_c(cr)
        return check(accounts, draft, convs, Qx, Cx, LOx, qr, cr)
    cases = []
    def case(name, **kw):
        Qx = copy.deepcopy(Q); Cx = copy.deepcopy(C); LOx = copy.deepcopy(LEFT_OUT)
        if "q" in kw: kw["q"](Qx)
        if "c" in kw: kw["c"](Cx)
        if "lo" in kw: kw["lo"](LOx)
        e = run(Qx, Cx, LOx, kw.get("mut_q"), kw.get("mut_c"))
        cases.append((name, e))
    def setq(i, **f):
        def g(Qx):
            row = list(Qx[i]); 
            for k, v in f.items(): row[{"snip": 1, "kind": 2, "ids": 3, "note": 4}[k]] = v
            Qx[i] = tuple(row)
        return g
    def setc(cid, **f):
        def g(Cx):
            row = list(Cx[cid])
            for k, v in f.items(): row[{"kind": 0, "fa": 1, "fu": 2, "note": 3}[k]] = v
            Cx[cid] = tuple(row)
        return g
    case("1 unknown article id", q=setq(0, ids=["when-to-arrive-typo"]))
    case("2 article from another account", q=setq(42, ids=["when-to-arrive"]))
    case("3 answerable with no ids", q=setq(1, ids=[]))
    case("4 chat with an id", q=setq(38, ids=["free-wifi"]))
    case("5 unanswerable with an id", q=setq(6, ids=["free-wifi"]))
    case("6 four ids", q=setq(2, ids=["free-drop-off-p4", "drop-off-zone", "short-stay-p1", "long-stay-p4"]))
    case("7 draft line dropped", q=lambda Qx: Qx.pop(5))
    case("8 two lines swapped", q=lambda Qx: Qx.__setitem__(slice(3, 5), [Qx[4], Qx[3]]))
    case("9 question text edited", mut_q=lambda qr: qr[10].__setitem__("question", qr[10]["question"] + "?"))
    case("10 override without a note", q=setq(35, note=""))
    case("11 conversation both labelled and left out", lo=lambda L: L.__setitem__("kestrelford-01", "x"))
    case("12 conversation forgotten", c=lambda Cx: Cx.pop("millrace-03"))
    case("13 stay with a different article", c=setc("larkspoon-01", fu="pause-deliveries"))
    case("14 move with the same article", c=setc("kestrelford-18", fu="buses-and-trains"))
    case("15 change with null", c=setc("kestrelford-21", fu=None))
    case("16 offtopic with an article", c=setc("millrace-22", fu="rent-instalments"))
    case("17 followup article from another account", c=setc("millrace-13", fu="refunds"))
    case("18 conversation labelled twice", mut_c=lambda cr: cr.append(dict(cr[0])))
    case("19 left-out id that doesn't exist", lo=lambda L: L.__setitem__("millrace-99", "x"))
    case("20 first msg answered in followups but unanswerable in questions",
         q=setq(11, kind=UNA, ids=[], note="x"))
    case("21 left-out first msg that questions.jsonl calls answerable",
         q=setq(10, kind=ANS, ids=["heron-lounge"], note="x"))
    case("22 rows of questions.jsonl reordered",
         mut_q=lambda qr: qr.__setitem__(slice(50, 52), [qr[51], qr[50]]))
    case("23 bad followup kind", c=setc("millrace-01", kind="same"))
    ok = True
    for name, e in cases:
        caught = bool(e)
        ok &= caught
        print("  selftest %-55s %s  (%s)" % (name, "CAUGHT" if caught else "MISSED", e[0] if e else "-"))
    return ok


def main():
    accounts, draft, convs = load_inputs()
    qrows, crows = make_rows(draft, convs, Q, C)
    err = check(accounts, draft, convs, Q, C, LEFT_OUT, qrows, crows)
    if err:
        print("ERRORS:"); [print("  " + e) for e in err]; sys.exit(1)
    write(qrows, crows)
    # re-read what was written and check again
    qr2 = [json.loads(l) for l in open(os.path.join(HERE, "questions.jsonl"), encoding="utf-8")]
    cr2 = [json.loads(l) for l in open(os.path.join(HERE, "followups.jsonl"), encoding="utf-8")]
    err = check(accounts, draft, convs, Q, C, LEFT_OUT, qr2, cr2)
    assert not err, err
    print("questions.jsonl: %d rows, followups.jsonl: %d rows, left out: %d" % (len(qr2), len(cr2), len(LEFT_OUT)))
    qc = collections.Counter((r["account"], r["kind"]) for r in qr2)
    cc = collections.Counter((r["account"], r["kind"]) for r in cr2)
    lo = collections.Counter(next(c["account"] for c in convs if c["id"] == i) for i in LEFT_OUT)
    for acc in sorted(accounts):
        print(acc, "questions:", {k: qc[(acc, k)] for k in (ANS, UNA, CHAT)},
              "followups:", {k: cc[(acc, k)] for k in ("stay", "move", "change", "offtopic", "another")},
              "left_out:", lo[acc])
    print("TOTAL questions:", dict(collections.Counter(r["kind"] for r in qr2)))
    print("TOTAL followups:", dict(collections.Counter(r["kind"] for r in cr2)))
    ov_q = [(i, draft[i]["intent"], k) for (i, s, k, ids, n) in Q if INTENT_TO_KIND[draft[i]["intent"]] != k]
    ov_c = [(c["id"], c["intent"], C[c["id"]][0]) for c in convs if c["id"] in C and CINTENT_TO_KIND[c["intent"]] != C[c["id"]][0]]
    print("question overrides:", len(ov_q), ov_q)
    print("conversation overrides:", len(ov_c), ov_c)
    print("multi-id answers:", sum(1 for r in qr2 if len(r["answer_ids"]) > 1))
    if "--no-selftest" not in sys.argv:
        print("self-test (deliberate breaks):")
        if not selftest(accounts, draft, convs):
            print("SELFTEST FAILED"); sys.exit(2)
        print("all deliberate breaks caught")


if __name__ == "__main__":
    main()
