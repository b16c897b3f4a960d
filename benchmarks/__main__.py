"""`make bench`: run every benchmarks/bench_*.py module and print its rows as tables.

Each module defines `run() -> tuple[str, list[dict]]`: a title and rows of figures.
Speed is measured and printed here, never asserted in tests.
"""
from __future__ import annotations

import importlib
import pkgutil
import platform
import sys
import time

from rich.console import Console
from rich.table import Table


def main(argv: list[str]) -> int:
    console = Console()
    console.print(f"[bold]grader benchmarks[/] on {platform.node()} — {platform.platform()}, "
                  f"{__import__('os').cpu_count()} cores, Python {platform.python_version()}")
    only = set(argv)
    import benchmarks
    for info in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda m: m.name):
        if not info.name.startswith("bench_") or (only and info.name not in only):
            continue
        module = importlib.import_module(f"benchmarks.{info.name}")
        t0 = time.perf_counter()
        title, rows = module.run()
        table = Table(title=f"{title}  ({time.perf_counter() - t0:.1f} s)")
        for key in (rows[0].keys() if rows else []):
            table.add_column(str(key))
        for row in rows:
            table.add_row(*(str(v) for v in row.values()))
        console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
