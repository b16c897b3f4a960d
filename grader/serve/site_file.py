"""One file of a static site the service keeps (a league's, a practice match's replays), served only
from inside its folder and only as a page or an asset: shared by the league's and the practice pages,
each of which decides first who may read its folder."""
from __future__ import annotations

from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.responses import FileResponse


def site_file(root: Path, rel: str, missing: str) -> FileResponse:
    """A page or asset of a site under `root`, never anything beside or above it; `missing`: the
    sentence when the site has not been written."""
    root = root.resolve()
    target = (root / (rel or "index.html")).resolve()
    if (root not in target.parents and target != root) or not target.is_file():
        raise HTTPException(404, missing if not root.exists() else "Not found.")
    if target.suffix not in (".html", ".css", ".js", ".svg", ".png"):
        raise HTTPException(404, "Not found.")     # results.json, grades.csv and the store stay private
    return FileResponse(target, headers={"Cache-Control": "no-store"})
