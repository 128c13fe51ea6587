"""Open a page in real headless Chromium (Debian's ``chromium``), run checks in it, screenshot it.

The page is served from 127.0.0.1 by a throwaway HTTP server; a checker page loads it in an
iframe (same origin) of the viewport width asked for, waits for it (and its images), and writes
what it found into its own DOM as JSON, which Chromium prints with ``--dump-dom``. What is checked:

- images: every ``<img>`` loaded (``broken`` lists those that did not);
- tables: none without body rows (``empty``);
- layout: no element reaches past the viewport's right or left edge (``wide``), the page does not
  scroll sideways (``page_width``), no element's content is wider than its box, whether hidden
  behind a scroll bar (``overflow-x: auto`` of a table wrapper) or spilling out of it (``overflow``),
  no text clipped by an ancestor that hides its overflow (``clipped``), and no SVG text outside
  its SVG (``svg_text``). Content folded in a closed ``<details>`` is opened first, so it is checked
  too.

:func:`screenshot` saves a PNG of the whole page at the same width (``chromium --screenshot``).
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

CHECK_PAGE = r"""<!doctype html><html><body style="margin:0"><div id="result">PENDING</div>
<iframe id="f" src="/{page}" style="width:{width}px;height:{height}px;border:0"></iframe>
<script>
function desc(el) {
  let s = el.tagName.toLowerCase();
  if (el.className && typeof el.className === 'string') s += '.' + el.className.trim().split(/\s+/).join('.');
  const t = (el.textContent || el.getAttribute('src') || '').replace(/\s+/g, ' ').trim().slice(0, 60);
  return s + ' "' + t + '"';
}
function check() {
  const w = document.getElementById('f').contentWindow, d = w.document;
  d.querySelectorAll('details').forEach(x => x.open = true);  // folded content is checked too
  const W = d.documentElement.clientWidth;
  const imgs = Array.from(d.images);
  const broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src'));
  const tables = Array.from(d.querySelectorAll('table'));
  const empty = tables.filter(t => t.querySelectorAll('tbody tr').length === 0).map(t => (t.caption || {}).textContent);
  const wide = [], overflow = [], clipped = [], svgText = [], narrow = [];
  const noAlt = imgs.filter(i => !(i.getAttribute('alt') || '').trim()).map(i => i.getAttribute('src'));
  // a text column narrower than 8 characters of the table's font (one probe a table). The probes are measured in
  // one box outside the page's flow, each with every font property of its table's first text cell (computed, so
  // absolute): putting a probe inside a table would lay that table out twice more (most of the check's time)
  const probeBox = d.createElement('div');
  probeBox.style.cssText = 'position:absolute;left:0;top:0;visibility:hidden;width:0;height:0;overflow:visible';
  const firstCells = [];
  for (const t of tables) {
    const cells = Array.from(t.querySelectorAll('td.t'));
    if (!cells.length) continue;
    const cs = w.getComputedStyle(cells[0]);
    const probe = d.createElement('span');
    probe.textContent = '00000000';
    for (const prop of cs) {
      if (prop.startsWith('font') || prop.startsWith('-webkit-font') || ['letter-spacing', 'word-spacing',
          'text-transform', 'text-rendering', 'direction', 'writing-mode'].includes(prop))
        probe.style.setProperty(prop, cs.getPropertyValue(prop));
    }
    probe.style.whiteSpace = 'nowrap';
    probe.lang = (cells[0].closest('[lang]') || d.documentElement).lang;
    probeBox.appendChild(probe);
    firstCells.push([cells, probe, parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight)]);
  }
  d.body.appendChild(probeBox);
  const eights = firstCells.map(([, probe]) => probe.getBoundingClientRect().width);
  probeBox.remove();
  firstCells.forEach(([cells, , pad], k) => {
    const eight = eights[k];
    for (const td of cells) {
      const inner = td.clientWidth - pad;
      if (td.clientWidth > 0 && inner < eight - 0.5) {
        narrow.push(desc(td) + ': ' + inner.toFixed(1) + ' px, 8 characters ' + eight.toFixed(1) + ' px'); break;
      }
    }
  });
  const headings = Array.from(d.querySelectorAll('h2')).map(h => [h.textContent, Math.round(h.getBoundingClientRect().top + w.scrollY)]);
  const flagged = new Set();  // only the outermost element of a fault is named, not every cell inside it
  for (const el of d.body.querySelectorAll('*')) {
    if (el.parentElement && flagged.has(el.parentElement)) { flagged.add(el); continue; }
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const cs = w.getComputedStyle(el);
    if (r.right > W + 1 || r.left < -1) {
      wide.push(desc(el) + ' spans ' + Math.round(r.left) + '..' + Math.round(r.right) + ' px of ' + W); flagged.add(el);
    }
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !(el.tagName === 'svg')) {
      overflow.push(desc(el) + ': content ' + el.scrollWidth + ' px wide in a ' + el.clientWidth + ' px box (overflow-x ' + cs.overflowX + ')');
      flagged.add(el);
    }
    if ((cs.overflowX !== 'visible' || cs.overflowY !== 'visible') && el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1)
      clipped.push(desc(el) + ': content ' + el.scrollHeight + ' px tall in a ' + el.clientHeight + ' px box (overflow-y ' + cs.overflowY + ')');
    if (cs.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth) clipped.push(desc(el) + ': text cut by an ellipsis');
  }
  for (const svg of d.querySelectorAll('svg')) {
    const b = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) svgText.push(desc(t));
    }
  }
  const res = {images: imgs.length, broken: broken, no_alt: noAlt, tables: tables.length, empty: empty, wide: wide,
               overflow: overflow, clipped: clipped, svg_text: svgText, narrow: narrow, headings: headings, viewport: W,
               page_width: d.documentElement.scrollWidth, page_height: d.documentElement.scrollHeight};
  document.getElementById('result').textContent = 'RESULT ' + JSON.stringify(res) + ' END';
}
const f = document.getElementById('f');
f.addEventListener('load', () => {
  const imgs = Array.from(f.contentDocument.images);
  Promise.all(imgs.map(i => i.complete ? 0 : new Promise(ok => { i.onload = ok; i.onerror = ok; })))
    .then(() => setTimeout(check, 300));
});
</script></body></html>"""


def chromium() -> str | None:
    """Path of the Chromium binary, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@contextmanager
def _served(folder: Path, page: str, width: int, height: int):
    """Serve ``folder`` (plus the checker page ``/__check.html``) on 127.0.0.1; yields the base URL."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            if self.path.startswith("/__check.html"):
                body = (CHECK_PAGE.replace("{page}", page).replace("{width}", str(width))
                        .replace("{height}", str(height)).encode())
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            else:
                super().do_GET()

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()


def _run(url: str, extra: list[str], timeout: float) -> subprocess.CompletedProcess:
    exe = chromium()
    if exe is None:
        raise RuntimeError("chromium is not installed (bash .ci/run installs Debian's chromium package)")
    with tempfile.TemporaryDirectory() as prof:
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--hide-scrollbars", "--force-device-scale-factor=1", f"--user-data-dir={prof}", *extra, url]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def check_page(folder: Path, page: str = "report.html", timeout: float = 90, width: int = 1200,
               height: int = 800) -> dict:
    """Load ``folder/page`` in headless Chromium in a ``width`` x ``height`` px viewport and check it.

    Returns:
        ``images``, ``broken`` (srcs), ``tables``, ``empty`` (captions), and the layout faults as lists
        of element descriptions: ``wide``, ``overflow``, ``clipped``, ``svg_text``; ``viewport``,
        ``page_width`` and ``page_height`` in CSS px.

    Raises:
        RuntimeError: Chromium missing, or no result came back.
    """
    folder = Path(folder).resolve()
    with _served(folder, page, width, height) as base:
        res = _run(f"{base}/__check.html", ["--virtual-time-budget=20000", f"--window-size={width + 40},{height + 100}",
                                            "--dump-dom"], timeout)
    m = re.search(r'<div id="result">RESULT (.*?) END</div>', res.stdout, re.S)
    if not m:
        raise RuntimeError(f"no result from chromium (exit {res.returncode}): {res.stdout[-500:]} {res.stderr[-500:]}")
    import html

    return json.loads(html.unescape(m.group(1)))


def screenshot(folder: Path, path: Path, page: str = "report.html", width: int = 1200, height: int = 2000,
               timeout: float = 90) -> Path:
    """Save a PNG of ``folder/page`` rendered ``width`` px wide, ``height`` px of it (pass the page's
    ``page_height`` from :func:`check_page` for the whole page; Chromium caps it at 16,384 px).

    Raises:
        RuntimeError: Chromium missing, or it wrote no screenshot.
    """
    folder, path = Path(folder).resolve(), Path(path).resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    with _served(folder, page, width, height) as base:
        res = _run(f"{base}/{page}", ["--virtual-time-budget=20000", f"--window-size={width},{min(height, 16384)}",
                                      f"--screenshot={path}"], timeout)
    if not path.is_file():
        raise RuntimeError(f"chromium wrote no screenshot (exit {res.returncode}): {res.stderr[-500:]}")
    return path
