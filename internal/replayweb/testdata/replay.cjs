// Drives ReplayWeb.page (its static app, served by the Go test) in
// headless Chromium through puppeteer-core, and prints what a person
// sees as one JSON object: the Pages view's entries, and for each URL
// asked for, the replayed frame's text and links (and what a click on
// a link opens). Screenshots go to the artefact folder.
//
//   node replay.cjs JOB.json
//
// JOB: {"chromium", "app" (the app's URL, ending in /), "source" (the
// archive's URL), "out" (artefact folder), "replay": [{"url", "ts",
// "click": [link text, ...]}]}. puppeteer-core is found through
// NODE_PATH.
"use strict";
const fs = require("fs");
const path = require("path");
const puppeteer = require("puppeteer-core");

const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
const timeout = job.timeout || 60000;

// until polls f until it returns a value, or fails after timeout.
async function until(what, f) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out waiting for " + what);
    await wait(200);
  }
}

// same says whether two URLs are one, escaped or not.
function same(a, b) {
  const un = (s) => { try { return decodeURIComponent(s); } catch (e) { return s; } };
  return un(a) === un(b);
}

// replayFrame is the frame ReplayWeb.page replays url in (its path
// ends in "mp_/" and the URL), once its document is loaded.
async function replayFrame(page, url) {
  return until("the replay frame of " + url, async () => {
    for (const f of page.frames()) {
      const u = f.url();
      const i = u.indexOf("mp_/");
      if (i < 0 || same(u.slice(i + 4), url) === false) continue;
      try {
        const ok = await f.evaluate(() => document.readyState === "complete" && !!document.body);
        if (ok) return f;
      } catch (e) {
        // the frame navigated meanwhile
      }
    }
    return null;
  });
}

async function seen(frame) {
  return frame.evaluate(() => ({
    url: location.href,
    title: document.title,
    text: document.body.innerText,
    links: [...document.querySelectorAll("a[href]")].map((a) => ({ text: a.textContent.trim(), href: a.href })),
  }));
}

async function shot(page, name) {
  if (!job.out) return "";
  const file = path.join(job.out, name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 100) + ".png");
  await page.screenshot({ path: file });
  return file;
}

(async () => {
  const profile = fs.mkdtempSync(path.join(job.tmp || require("os").tmpdir(), "rwp-chromium-"));
  const browser = await puppeteer.launch({
    executablePath: job.chromium,
    headless: true,
    userDataDir: profile,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
  const result = { pages: [], replays: [], console: [] };
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
    page.on("console", (m) => result.console.length < 200 && result.console.push(m.type() + ": " + m.text()));
    page.on("pageerror", (e) => result.console.length < 200 && result.console.push("pageerror: " + e.message));
    const base = job.app + "?source=" + encodeURIComponent(job.source);
    await page.goto(base + "#view=pages", { waitUntil: "load" });
    // The Pages view, once the archive is loaded: each entry's text.
    result.pages = await until("the Pages view", async () => {
      const entries = await page.$$(">>> wr-page-entry");
      if (!entries.length) {
        const empty = await page.$$eval(">>> wr-page-view", (e) => e.map((x) => (x.shadowRoot || x).textContent));
        return empty.some((t) => /No Pages are defined/.test(t)) ? [] : null;
      }
      return Promise.all(entries.map((e) => e.evaluate((x) => (x.shadowRoot || x).textContent.replace(/\s+/g, " ").trim())));
    });
    result.pagesShot = await shot(page, "pages");
    for (const r of job.replay || []) {
      const rep = { url: r.url, clicks: [] };
      await page.goto(base + "#view=replay&url=" + encodeURIComponent(r.url) + (r.ts ? "&ts=" + r.ts : ""), { waitUntil: "load" });
      try {
        const f = await replayFrame(page, r.url);
        Object.assign(rep, await seen(f));
        rep.shot = await shot(page, "replay " + r.url);
        for (const text of r.click || []) {
          const f = await replayFrame(page, r.url);
          const link = await f.$$eval("a[href]", (as, text) => {
            // The link whose text is text, else the first that begins with it.
            const a = as.find((a) => a.textContent.trim() === text) || as.find((a) => a.textContent.trim().startsWith(text));
            if (!a) return null;
            a.click();
            return a.href;
          }, text);
          const c = { text, href: link };
          if (link) {
            try {
              const to = await until("the frame to leave " + r.url, async () => {
                for (const g of page.frames()) {
                  const u = g.url();
                  const i = u.indexOf("mp_/");
                  if (i >= 0 && !same(u.slice(i + 4), r.url)) return g;
                }
                return null;
              });
              await until("the clicked page to load", () => to.evaluate(() => document.readyState === "complete" && !!document.body).catch(() => false));
              const s = await seen(to);
              Object.assign(c, { url: s.url, title: s.title, pageText: s.text, links: s.links });
              c.shot = await shot(page, "click " + text);
            } catch (e) {
              c.error = String(e);
            }
            await page.goto(base + "#view=replay&url=" + encodeURIComponent(r.url) + (r.ts ? "&ts=" + r.ts : ""), { waitUntil: "load" });
          }
          rep.clicks.push(c);
        }
      } catch (e) {
        rep.error = String(e);
        rep.shot = await shot(page, "failed " + r.url);
      }
      result.replays.push(rep);
    }
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify(result) + "\n");
})().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exit(1);
});
