// The peer: node-webot `wechat` middleware on Express, answering an article code with a 1-article
// news reply from an in-memory map — the same work replyd does, the way people build it today.
// Usage: node server.js PORT TOKEN ARTICLES.json [MODULES_DIR]
// MODULES_DIR: another package folder to take express and wechat from (bench/peer-express4), so
// both Express peers run this same code.
const fs = require("fs");
const path = require("path");
const modules = process.argv[5];
const load = modules ? require("module").createRequire(path.join(path.resolve(modules), "package.json")) : require;
const express = load("express");
const wechat = load("wechat");

const [port, token, file] = process.argv.slice(2);
console.error(JSON.stringify({ event: "peer", express: load("express/package.json").version }));
const byCode = new Map();
for (const a of JSON.parse(fs.readFileSync(file, "utf8"))) byCode.set(a.code.toLowerCase(), a);

const app = express();
app.use(
  "/wechat",
  wechat(token, (req, res) => {
    const m = req.weixin;
    const a = m.MsgType === "text" ? byCode.get(String(m.Content).trim().toLowerCase()) : undefined;
    if (a) res.reply([{ title: a.title, description: a.description || "", picurl: a.picurl || "", url: a.url }]);
    else res.reply("Send h for help.");
  }),
);
app.listen(Number(port), "127.0.0.1", () => console.log(JSON.stringify({ event: "listening", port: Number(port) })));
