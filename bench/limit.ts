// The limit: a bare Bun.serve that reads the body and returns a fixed news reply. No signature,
// no parsing, no lookup: what the runtime can do at most.  Usage: bun bench/limit.ts PORT
const port = Number(process.argv[2] ?? 0);
const reply =
  "<xml><ToUserName><![CDATA[o]]></ToUserName><FromUserName><![CDATA[gh]]></FromUserName><CreateTime>1763719200</CreateTime><MsgType><![CDATA[news]]></MsgType><ArticleCount>1</ArticleCount><Articles><item><Title><![CDATA[Article]]></Title><Description><![CDATA[]]></Description><PicUrl><![CDATA[]]></PicUrl><Url><![CDATA[https://example.com/]]></Url></item></Articles></xml>";
const server = Bun.serve({
  port,
  hostname: "127.0.0.1",
  async fetch(req) {
    await req.arrayBuffer();
    return new Response(reply, { headers: { "content-type": "application/xml" } });
  },
});
console.log(JSON.stringify({ event: "listening", port: server.port }));
