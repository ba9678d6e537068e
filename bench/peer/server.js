// The peer: node-webot `wechat` middleware on Express, answering an article code with a 1-article
// news reply from an in-memory map — the same work replyd does, the way people build it today.
// Usage: node server.js PORT TOKEN ARTICLES.json
const express = require("express");
const wechat = require("wechat");
const fs = require("fs");

const [port, token, file] = process.argv.slice(2);
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
