// warccheck reads WARC files with Webrecorder's warcio (an independent
// reader) and prints one JSON line per record: its offset, type, target,
// and whether its WARC-Block-Digest and WARC-Payload-Digest are those
// of its octets. The payload is the archive package's: an HTTP entity
// body with the chunked transfer coding removed, what follows a Gemini
// response's header line, every other response or resource whole.
const fs = require("fs");
const crypto = require("crypto");
const { WARCParser } = require("warcio");

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function base32(buf) {
  let bits = 0, value = 0, out = "";
  for (const b of buf) {
    value = (value << 8) | b; bits += 8;
    while (bits >= 5) { out += B32[(value >>> (bits - 5)) & 31]; bits -= 5; }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  while (out.length % 8) out += "=";
  return out;
}
function sha1(buf) { return "sha1:" + base32(crypto.createHash("sha1").update(buf).digest()); }

function dechunk(buf) {
  const parts = [];
  let i = 0;
  for (;;) {
    const nl = buf.indexOf("\n", i);
    if (nl < 0) return null;
    const size = parseInt(buf.slice(i, nl).toString().split(";")[0].trim(), 16);
    if (isNaN(size)) return null;
    i = nl + 1;
    if (size === 0) return Buffer.concat(parts);
    if (i + size > buf.length) return null;
    parts.push(buf.slice(i, i + size));
    i += size;
    if (buf[i] === 13) i++;
    if (buf[i] === 10) i++;
  }
}

function payloadOf(type, ctype, block) {
  if (type === "resource") return block;
  if (/^application\/http/.test(ctype)) {
    let off = 0;
    for (;;) {
      let end = block.indexOf("\r\n\r\n", off), sep = 4;
      const e2 = block.indexOf("\n\n", off);
      if (e2 >= 0 && (end < 0 || e2 < end)) { end = e2; sep = 2; }
      if (end < 0) return null;
      const head = block.slice(off, end).toString("latin1");
      const status = head.split(/\s+/)[1] || "";
      if (/^1\d\d$/.test(status) && status !== "101") { off = end + sep; continue; }
      const body = block.slice(end + sep);
      return /\ntransfer-encoding:[^\n]*chunked/i.test(head) ? dechunk(body) : body;
    }
  }
  if (/^application\/gemini/.test(ctype)) {
    const nl = block.indexOf("\n");
    return nl < 0 ? null : block.slice(nl + 1);
  }
  return block;
}

async function main() {
  for (const file of process.argv.slice(2)) {
    const parser = new WARCParser(fs.createReadStream(file), { parseHttp: false });
    try {
    for await (const record of parser) {
      const block = Buffer.from(await record.readFully(false));
      const h = (n) => record.warcHeaders.headers.get(n);
      const type = h("WARC-Type");
      const out = { file, offset: parser.offset, type, uri: h("WARC-Target-URI") || "",
        length: block.length, contentLength: Number(h("Content-Length")) };
      const bd = h("WARC-Block-Digest");
      if (bd) out.blockOK = sha1(block) === bd;
      const pd = h("WARC-Payload-Digest");
      if (pd && type !== "revisit") {
        const p = payloadOf(type, h("Content-Type") || "", block);
        out.payloadOK = p !== null && sha1(p) === pd;
      }
      if (pd) out.payload = pd;
      if (h("WARC-Truncated")) out.truncated = h("WARC-Truncated");
      console.log(JSON.stringify(out));
    }
    } catch (e) {
      // a file cut short: what was read before is printed, then this
      console.log(JSON.stringify({ file, error: String(e && e.message || e) }));
    }
  }
}
main().catch((e) => { console.error(String(e && e.stack || e)); process.exit(1); });
