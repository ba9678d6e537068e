"""What a follower would get for every message of a walkthrough, through the binary's `replyd ask`.

    python3 bench/eval/walkthroughs/ask-all.py DIR [REPLYD]   (REPLYD_URL, REPLYD_APPKEY, REPLYD_SECRET set;
                                                             DIR's articles.json imported into that server)

Prints each single message with its answer, each follow-up pair with the first answer and the
follow-up's, each "another" the same way. Not a score: the messages carry no labels (README.md).
"""
import json
import subprocess
import sys

DIR = sys.argv[1]
REPLYD = sys.argv[2] if len(sys.argv) > 2 else "dist/replyd"


def ask(question, after=None):
    cmd = [REPLYD, "ask", "--json"] + (["--after", after] if after else []) + ["--", question]
    out = subprocess.run(cmd, capture_output=True, text=True)
    try:
        d = json.loads(out.stdout)
    except ValueError:
        return ("error", (out.stdout + out.stderr)[:200])
    return (d.get("answer"), d.get("choice_why"))


def lines(name):
    with open(f"{DIR}/{name}", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


for m in lines("messages.jsonl"):
    a = ask(m["text"])
    print(f"{m['id']} {'A' if m['answerable'] else 'U'} {m['text']}\n    -> {a[0]} ({a[1]})")
for name in ("followups.jsonl", "another.jsonl"):
    for m in lines(name):
        first = ask(m["first"])
        then = ask(m["then"], m["first"])
        print(f"{m['id']} {m.get('kind', 'another')} {m['first']} => {first[0]}\n    + {m['then']} -> {then[0]} ({then[1]})")
