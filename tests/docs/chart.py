"""Charts drawn from a console block: `compare`'s table as bars, one SVG file per chart.

A chapter asks for one with a marker after a console block that prints `compare`'s table:

    <!-- chart: img/compare-2-threads.svg -->

The chart is the ×r column of every runtime beside `mini` (its median over mini's), one group of
bars per workload row, on a log scale with 1 marked: a bar to the right of 1 is a runtime slower
than mini on that row, or using more CPU. The SVG is a function of the block's text alone, so the
docs check can redraw it from the block as it stands and say when the file is stale; `update`
rewrites it. Standard library only, like chapters.py.
"""
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

MARKER = re.compile(r"^<!-- chart: (\S+\.svg) -->$")
RATIO = re.compile(r"×([0-9.]+)")
COLOURS = {"serial": "#9e9e9e", "mini-pw": "#388e3c", "rayon": "#c2185b", "oneTBB": "#1976d2",
           "OpenMP": "#f57c00"}
ROW_H, BAR_H, LEFT, WIDTH, TOP = 14, 12, 290, 760, 46
SCALE = (1 / 8, 16)  # the axis: ×1/8 to ×16, log2; ratios outside are drawn at the edge


def table(lines):
    """compare's table in a console block: (runtimes, [(workload, {runtime: ratio})]). Only the
    rows with ratios; mini is the reference and has none."""
    head = next((i for i, l in enumerate(lines) if l.startswith("workload [unit]")), None)
    if head is None:
        return [], []
    runtimes = re.split(r"\s{2,}", lines[head].strip())[1:]
    rows = []
    for line in lines[head + 1:]:
        if not line.startswith(("  ", "join", "fib", "sum", "wake", "CPU")) or ":" in line[:40]:
            break
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) != len(runtimes) + 1:
            continue
        ratios = {rt: float(m.group(1)) for rt, c in zip(runtimes, cells[1:])
                  if (m := RATIO.search(c))}
        if ratios:
            rows.append((cells[0], ratios))
    return [rt for rt in runtimes if rt != "mini"], rows


def x_of(ratio):
    lo, hi = (math.log2(s) for s in SCALE)
    r = min(max(math.log2(ratio), lo), hi)
    return LEFT + (r - lo) / (hi - lo) * (WIDTH - LEFT - 60)


def svg(lines, title):
    """The chart of a block's lines, as SVG text (deterministic: same lines, same bytes)."""
    runtimes, rows = table(lines)
    shown = [rt for rt in runtimes if any(rt in r for _, r in rows)]
    group = ROW_H * len(shown) + 10
    height = TOP + group * len(rows) + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
           f'<text x="10" y="18" font-size="14">{esc(title)}</text>']
    for i, rt in enumerate(shown):
        out.append(f'<rect x="{LEFT + 110 * i}" y="28" width="10" height="10" '
                   f'fill="{COLOURS.get(rt, "#555")}"/><text x="{LEFT + 110 * i + 14}" '
                   f'y="37">{esc(rt)}</text>')
    y = TOP
    for name, ratios in rows:
        out.append(f'<text x="10" y="{y + group / 2}">{esc(name)}</text>')
        for j, rt in enumerate(shown):
            if rt in ratios:
                x0, x1 = sorted((x_of(1), x_of(ratios[rt])))
                by = y + j * ROW_H
                out.append(f'<rect x="{x0:.1f}" y="{by}" width="{max(x1 - x0, 1):.1f}" '
                           f'height="{BAR_H}" fill="{COLOURS.get(rt, "#555")}"/>')
                out.append(f'<text x="{x1 + 3:.1f}" y="{by + 10}" font-size="10">'
                           f'×{ratios[rt]:g}</text>')
        y += group
    for tick in (0.125, 0.25, 0.5, 1, 2, 4, 8, 16):
        x = x_of(tick)
        out.append(f'<line x1="{x:.1f}" y1="{TOP - 4}" x2="{x:.1f}" y2="{y}" stroke="#000" '
                   f'stroke-opacity="{0.8 if tick == 1 else 0.15}"/>')
        out.append(f'<text x="{x:.1f}" y="{y + 14}" text-anchor="middle">×{tick:g}</text>')
    out.append(f'<text x="10" y="{y + 32}">each runtime\'s median over mini\'s: '
               f'right of ×1, mini is faster (or uses less CPU)</text>')
    out.append("</svg>")
    text = "\n".join(out) + "\n"
    ET.fromstring(text)  # well-formed, or this raises
    return text


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def charts(doc_path, text):
    """(svg path, the block's lines, title) for each chart marker in a chapter's text: the block
    is the last console block above the marker."""
    lines, found, block, inside = text.split("\n"), [], None, False
    for i, line in enumerate(lines):
        if line.startswith("```console"):
            inside, block = True, []
        elif inside and line.startswith("```"):
            inside = False
        elif inside:
            block.append(line)
        elif (m := MARKER.match(line)) and block is not None:
            title = f"{block[0][2:]}: the ×r columns" if block else ""
            found.append((i + 1, doc_path.parent / m.group(1), block[1:], title))
    return found


def check(doc_path, text, update):
    """Problems ("file:line: ...") for the charts of one chapter; with update, stale or missing
    charts are rewritten instead. Returns (problems, written paths)."""
    problems, written = [], []
    for line, path, block, title in charts(doc_path, text):
        if not table(block)[1]:
            problems.append(f"{doc_path.name}:{line}: the console block above the chart has no "
                            f"compare table (a 'workload [unit]' header and rows with ×r)")
            continue
        want = svg(block, title)
        if path.is_file() and path.read_text() == want:
            continue
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(want)
            written.append(path)
        else:
            state = "is stale" if path.is_file() else "is missing"
            problems.append(f"{doc_path.name}:{line}: chart {path.name} {state}: it must be drawn "
                            f"from the console block above it (chapters.py update)")
    return problems, written
