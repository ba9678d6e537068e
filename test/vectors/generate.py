#!/usr/bin/env python3
"""Independent implementation of DESIGN §4 used to produce test/vectors/signing.json.

Written in Python on purpose: the TypeScript signer and verifier are tested against
answers that did not come from themselves.  Run: python3 test/vectors/generate.py
"""
import hashlib, json, os
from urllib.parse import quote

def enc(s): return quote(s.encode("utf-8"), safe="-._~")

def canonical(method, path, params):
    pairs = sorted((enc(k), enc(v)) for k, v in params)
    return method + "\n" + path + "\n" + "&".join(f"{k}={v}" for k, v in pairs)

A = [("appkey", "demo"), ("nonce", "abcdefghijklmnop"), ("ts", "1763719200.123")]
def auth(ts="1763719200.123", appkey="demo", nonce="abcdefghijklmnop"):
    return [("appkey", appkey), ("nonce", nonce), ("ts", ts)]

FILE_BYTES = '[{"title":"Hello","url":"https://example.com/a"}]\n'
cases = [
    ("design example GET", "GET", "/api/cli", auth(), None),
    ("design example PUT with UTF-8 and reserved characters", "PUT", "/api/cli", auth() + [("id", "fv-3"), ("title", "Hello, 世界 & more=1")], None),
    ("space is %20, never +", "GET", "/api/cli", auth() + [("q", "two words")], None),
    ("plus sign inside a value", "POST", "/api/cli", auth() + [("title", "C++ & a+b")], None),
    ("equals and ampersand inside a value", "PUT", "/api/cli", auth() + [("description", "a=b&c=d")], None),
    ("percent sign inside a value", "PUT", "/api/cli", auth() + [("title", "100% sure %41")], None),
    ("empty value", "PUT", "/api/cli", auth() + [("id", "x1"), ("picurl", "")], None),
    ("file part signed as md5", "POST", "/api/cli", auth() + [("mode", "merge")], ("json", FILE_BYTES)),
    ("several parameters with the same key", "GET", "/api/cli", auth() + [("tag", "zz"), ("tag", "aa"), ("tag", "mm")], None),
    ("ts with no decimals", "GET", "/api/cli", auth(ts="1763719200"), None),
    ("ts with one decimal", "GET", "/api/cli", auth(ts="1763719200.1"), None),
    ("ts with two decimals", "DELETE", "/api/cli", auth(ts="1763719200.12") + [("id", "fv-3")], None),
    ("revert path with matter", "POST", "/api/cli/revert/articles", auth(), None),
    ("sub-delims and unreserved marks", "PUT", "/api/cli", auth() + [("title", "!*'();:@$,/?#[]~-._")], None),
    ("emoji (4-byte UTF-8)", "PUT", "/api/cli", auth() + [("title", "café 🎉")], None),
    ("uppercase key sorts before lowercase", "GET", "/api/cli", auth() + [("Z", "1"), ("a", "2")], None),
    ("key needing encoding", "GET", "/api/cli", auth() + [("a b", "c")], None),
    ("newline and tab in a value", "PUT", "/api/cli", auth() + [("description", "line1\nline2\tend")], None),
    ("percent-encoded path kept as sent", "GET", "/api/cli/revert/a%20b", auth(), None),
]

out = []
for name, method, path, params, file in cases:
    signed = list(params)
    files = {}
    if file:
        fname, content = file
        md5 = hashlib.md5(content.encode()).hexdigest()
        signed.append((fname, "md5:" + md5))
        files[fname] = content
    secret = "s3cret"
    c = canonical(method, path, signed)
    out.append({
        "name": name, "method": method, "path": path, "secret": secret,
        "params": [list(p) for p in params], "files": files,
        "canonical": c, "sign": hashlib.md5((c + secret).encode()).hexdigest(),
    })

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "signing.json"), "w") as f:
    json.dump(out, f, ensure_ascii=False, indent=2); f.write("\n")
print(len(out), "vectors")

# Signed answers (docs/protocol.md): md5 of "replyd-answer/1\nMETHOD\nPATH\nNONCE\nSTATUS\nsha256(body)" + SECRET.
answers = [
    ("health answer", "GET", "/api/cli", "abcdefghijklmnop", 200, '{"ok":true,"data":{"status":"ok"}}'),
    ("stale_timestamp refusal", "GET", "/api/cli", "abcdefghijklmnop", 401, '{"ok":false,"error":{"code":"stale_timestamp","message":"x","server_time":"1763719260.000","window_s":5}}'),
    ("empty body", "DELETE", "/api/cli/revert/all", "nonce-0123456789", 200, ""),
    ("UTF-8 body", "PUT", "/api/cli", "zyxwvutsrqponmlk", 409, '{"ok":false,"error":{"code":"rev_mismatch","message":"世界"}}'),
]
aout = []
for name, method, path, nonce, status, body in answers:
    digest = hashlib.sha256(body.encode()).hexdigest()
    c = "replyd-answer/1\n" + method + "\n" + path + "\n" + nonce + "\n" + str(status) + "\n" + digest
    aout.append({"name": name, "method": method, "path": path, "nonce": nonce, "status": status, "body": body,
                 "body_sha256": digest, "secret": "s3cret", "canonical": c, "signature": hashlib.md5((c + "s3cret").encode()).hexdigest()})
with open(os.path.join(here, "answers.json"), "w") as f:
    json.dump(aout, f, ensure_ascii=False, indent=2); f.write("\n")
print(len(aout), "answer vectors")
