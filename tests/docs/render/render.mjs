// render.mjs -- render every ```mermaid block of the given markdown files in a real browser engine
// (Debian's chromium driven by @mermaid-js/mermaid-cli), as GitHub would show them.
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
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

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
let rendered = 0, failed = 0;
try {
    for (const file of args) {
        for (const d of diagrams(file)) {
            const where = `${path.relative(root, path.resolve(file))}:${d.line}`;
            try {
                const { data } = await renderMermaid(browser, d.text, "svg");
                // mermaid draws some errors as a diagram instead of throwing
                if (/aria-roledescription="error"|Syntax error in text/.test(Buffer.from(data)))
                    throw new Error("mermaid drew its error diagram");
                if (pngDir) {
                    const png = await renderMermaid(browser, d.text, "png", {
                        viewport: { width: 1200, height: 800, deviceScaleFactor: 2 },
                    });
                    const name = `${path.basename(file, ".md")}-${d.line}.png`;
                    fs.writeFileSync(path.join(pngDir, name), png.data);
                }
                rendered++;
            } catch (e) {
                failed++;
                console.log(`${where}: mermaid render failed: ${String(e.message || e).split("\n").slice(0, 4).join(" | ")}`);
            }
        }
    }
} finally {
    await browser.close();
}
console.log(`render: ${rendered} diagrams rendered in ${args.length} files, ${failed} failed`);
process.exit(failed ? 1 : 0);
