"""Open a page in real headless Chromium (Debian's ``chromium``) and run checks in it.

The page is served from 127.0.0.1 by a throwaway HTTP server; a checker page loads it in an
iframe (same origin), waits for it, and writes what it found into its own DOM, which Chromium
prints with ``--dump-dom``.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

CHECK_PAGE = """<!doctype html><html><body><div id="result">PENDING</div>
<iframe id="f" src="/{page}" style="width:1200px;height:800px"></iframe>
<script>
function check() {{
  const d = document.getElementById('f').contentDocument;
  const imgs = Array.from(d.images);
  const bad = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src'));
  const tables = Array.from(d.querySelectorAll('table'));
  const empty = tables.filter(t => t.querySelectorAll('tbody tr').length === 0).map(t => (t.caption || {{}}).textContent);
  document.getElementById('result').textContent =
    'IMAGES ' + imgs.length + ' BROKEN ' + JSON.stringify(bad) + ' TABLES ' + tables.length + ' EMPTY ' + JSON.stringify(empty);
}}
document.getElementById('f').addEventListener('load', () => setTimeout(check, 300));
</script></body></html>"""


def chromium() -> str | None:
    """Path of the Chromium binary, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def check_page(folder: Path, page: str = "report.html", timeout: float = 60) -> dict:
    """Load ``folder/page`` in headless Chromium; count images (broken ones listed) and tables (empty ones listed).

    Raises:
        RuntimeError: Chromium missing, or no result came back.
    """
    exe = chromium()
    if exe is None:
        raise RuntimeError("chromium is not installed (bash .ci/run installs Debian's chromium package)")
    folder = Path(folder).resolve()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            if self.path.startswith("/__check.html"):
                body = CHECK_PAGE.format(page=page).encode()
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
        with tempfile.TemporaryDirectory() as prof:
            url = f"http://127.0.0.1:{srv.server_address[1]}/__check.html"
            cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                   "--disable-background-networking", "--disable-component-update", "--disable-sync",
                   f"--user-data-dir={prof}", "--virtual-time-budget=15000", "--dump-dom", url]
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    finally:
        srv.shutdown()
    m = re.search(r'<div id="result">IMAGES (\d+) BROKEN (\[.*?\]) TABLES (\d+) EMPTY (\[.*?\])</div>', res.stdout)
    if not m:
        raise RuntimeError(f"no result from chromium (exit {res.returncode}): {res.stdout[-500:]} {res.stderr[-500:]}")
    import json

    return {"images": int(m.group(1)), "broken": json.loads(m.group(2)), "tables": int(m.group(3)),
            "empty": json.loads(m.group(4))}
