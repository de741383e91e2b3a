// render.mjs -- render every ```mermaid block of the given markdown files in a real browser engine
// (mermaid in Debian's chromium, driven by puppeteer), as GitHub would show them.
//
//   node tests/docs/render/render.mjs [--png DIR] FILE.md...
//
// Prints `FILE:LINE: mermaid render failed: REASON` for each diagram that does not render and exits
// 1; exits 0 when every diagram rendered. --png DIR also writes each diagram as DIR/FILE-LINE.png,
// to look at. The browser is the system's (CHROMIUM, default /usr/bin/chromium), never downloaded.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer";
import { renderMermaid } from "@mermaid-js/mermaid-cli";

// Files are named from the repository root (import.meta.dirname is newer than Debian 12's node 18).
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");

// The ```mermaid blocks of one file: [{line, text}], line being the opening fence's.
function diagrams(file) {
    const lines = fs.readFileSync(file, "utf8").split("\n");
    const found = [];
    for (let i = 0; i < lines.length; i++) {
        const open = lines[i].match(/^( *)(```+|~~~+)\s*mermaid\s*$/);
        if (!open) continue;
        const body = [];
        let j = i + 1;
        const close = new RegExp(`^ *${open[2][0]}{${open[2].length},}\\s*$`);
        for (; j < lines.length && !close.test(lines[j]); j++) body.push(lines[j]);
        found.push({ line: i + 1, text: body.join("\n") });
        i = j;
    }
    return found;
}

const args = process.argv.slice(2);
let pngDir = null;
if (args[0] === "--png") {
    pngDir = args[1];
    args.splice(0, 2);
    fs.mkdirSync(pngDir, { recursive: true });
}
if (args.length === 0) {
    console.error("usage: node render.mjs [--png DIR] FILE.md...");
    process.exit(2);
}

const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    // root in a container has no user namespaces for chromium's sandbox
    args: process.getuid() === 0 ? ["--no-sandbox"] : [],
});
// One page loads mermaid once and renders every diagram (a page per diagram, as mermaid-cli's
// renderMermaid does, costs seconds each); --png uses renderMermaid, for its pictures.
const page = await browser.newPage();
await page.setContent("<!doctype html><html><body></body></html>");
await page.addScriptTag({ path: path.join(here, "node_modules/mermaid/dist/mermaid.min.js") });
await page.evaluate(() => window.mermaid.initialize({ startOnLoad: false }));
let rendered = 0, failed = 0;
try {
    for (const file of args) {
        for (const d of diagrams(file)) {
            const where = `${path.relative(root, path.resolve(file))}:${d.line}`;
            const error = await page.evaluate(async (id, text) => {
                try {
                    const { svg } = await window.mermaid.render(id, text);
                    // mermaid draws some errors as a diagram instead of throwing
                    return /aria-roledescription="error"/.test(svg) ? "mermaid drew its error diagram" : null;
                } catch (e) {
                    return String(e.message || e);
                }
            }, `diagram${rendered + failed}`, d.text);
            if (error) {
                failed++;
                console.log(`${where}: mermaid render failed: ${error.split("\n").slice(0, 4).join(" | ")}`);
                continue;
            }
            rendered++;
            if (pngDir) {
                const png = await renderMermaid(browser, d.text, "png", {
                    viewport: { width: 1200, height: 800, deviceScaleFactor: 2 },
                });
                fs.writeFileSync(path.join(pngDir, `${path.basename(file, ".md")}-${d.line}.png`), png.data);
            }
        }
    }
} finally {
    await browser.close();
}
console.log(`render: ${rendered} diagrams rendered in ${args.length} files, ${failed} failed`);
process.exit(failed ? 1 : 0);
