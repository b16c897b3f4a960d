"""Games on a Dask cluster: a scheduler address, a LocalCluster, or a dask-jobqueue cluster.

Each task plays a batch of games of one pairing. Submissions travel to workers by content hash
(a tar of the staged copy, scattered once) and are staged again there, read-only. Results come
back to the manager, which stays the only writer of the store. A lost worker or a failed task is
the grader's failure: its games come back as `infra_error` results and the league retries them,
and a nanny plugin kills the players the lost worker had started.

Needs the optional extra: `pip install .[dask]`.
"""
from __future__ import annotations

import io
import os
import tarfile
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from .config import ConfigError
from .executors import Executor, infra_result, reap_orphaned_players, tracked
from .match import play_game, player_factory
from .submissions import publish, stage_root

try:
    import dask
    from distributed import Client, LocalCluster, as_completed
    from distributed.diagnostics.plugin import NannyPlugin
    from tornado.ioloop import PeriodicCallback  # distributed's own event loop
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ConfigError("league.executor is 'dask' but Dask is not installed: pip install '.[dask]'.") from exc

JOBQUEUE = {"slurm": "SLURMCluster", "pbs": "PBSCluster", "htcondor": "HTCondorCluster",
            "sge": "SGECluster", "lsf": "LSFCluster", "moab": "MoabCluster", "oar": "OARCluster"}
SETTINGS = {"address", "cluster", "workers", "jobqueue", "batch"}
REAP_EVERY_MS = 1000


def bundle(folder: Path) -> bytes:
    """The staged submission as an in-memory tar (regular files only)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file() and not path.is_symlink():
                tar.add(path, arcname=path.relative_to(folder).as_posix(), recursive=False)
    return buf.getvalue()


def materialize(content_hash: str, data: bytes) -> Path:
    """Stage a shipped submission on this worker (once per hash), read-only."""
    target = stage_root() / content_hash[:24]
    if target.exists():
        return target
    tmp = Path(os.path.join(stage_root(), f".incoming-{content_hash[:24]}-{os.getpid()}"))
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        # the manager's own bundle() of regular files; Python before 3.11.4 has no filters
        if hasattr(tarfile, "data_filter"):
            tar.extractall(tmp, filter="data")
        else:
            tar.extractall(tmp)
    return publish(tmp, target)


def _play_batch(assignment, jobs: list, payloads: dict, factory) -> list:
    """Runs on a worker: play every game of one pairing, in order."""
    staged = {h: materialize(h, data) for h, data in payloads.items()}
    factory = tracked(factory or player_factory(assignment))
    out = []
    for key, spec, s0, s1 in jobs:
        s0 = replace(s0, staged=staged[s0.content_hash])
        s1 = replace(s1, staged=staged[s1.content_hash])
        out.append((key, spec, play_game(assignment, s0, s1, spec.seed, factory=factory)))
    return out


class PlayerReaper(NannyPlugin):
    """Runs in each worker's nanny: every second, and when the nanny closes, kill the players of a
    worker that died (a frozen player would otherwise wait forever for its next call)."""

    idempotent = True
    name = "grader-player-reaper"

    def setup(self, nanny):
        self.callback = PeriodicCallback(reap_orphaned_players, REAP_EVERY_MS)
        nanny.periodic_callbacks[f"{self.name}-{id(nanny)}"] = self.callback
        self.callback.start()

    def teardown(self, nanny):
        self.callback.stop()
        reap_orphaned_players()


class DaskExecutor(Executor):
    """Config: league.executor: dask, league.dask: {address: "tcp://…"} | {cluster: local, workers: 2}
    | {cluster: slurm, workers: 10, jobqueue: {cores: 1, memory: "2GB", …}}; batch: games per task (8).

    On clusters started here a task whose worker dies fails at once (allowed-failures 0), so the
    league sees and counts the infra retry; a scheduler at `address` keeps its own retry setting."""

    def __init__(self, assignment=None, **settings):
        unknown = set(settings) - SETTINGS
        if unknown:
            raise ConfigError(f"league.dask has unknown setting(s) {', '.join(sorted(unknown))}; "
                              f"known: {', '.join(sorted(SETTINGS))}.")
        address, cluster = settings.get("address"), settings.get("cluster", "local")
        workers, self.batch = int(settings.get("workers", 2)), max(1, int(settings.get("batch", 8)))
        self.cluster = None
        with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
            if address:
                self.client = Client(address)
            elif cluster == "local":
                self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                            dashboard_address=None)
            elif cluster in JOBQUEUE:
                import dask_jobqueue  # here: dask-jobqueue is needed only for a batch-system cluster

                self.cluster = getattr(dask_jobqueue, JOBQUEUE[cluster])(**(settings.get("jobqueue") or {}))
                self.cluster.scale(jobs=workers)
            else:
                raise ConfigError(f"league.dask.cluster is {cluster!r}: use an address, 'local' or one of "
                                  f"{', '.join(JOBQUEUE)}.")
        if self.cluster is not None:
            self.client = Client(self.cluster)
        self.client.register_plugin(PlayerReaper())

    def play(self, assignment, jobs, factory=None, skip=None):
        payloads: dict[str, object] = {}
        groups: dict[str, list] = defaultdict(list)
        for key, spec, s0, s1 in jobs:
            if skip and skip(spec):
                continue
            for sub in (s0, s1):
                if sub.content_hash not in payloads:
                    payloads[sub.content_hash] = self.client.scatter(bundle(sub.staged), broadcast=False)
            groups[spec.pairing].append((key, spec, s0, s1))
        futures = {}
        for items in groups.values():
            for i in range(0, len(items), self.batch):
                chunk = items[i:i + self.batch]
                needed = {s.content_hash: payloads[s.content_hash] for _, _, a, b in chunk for s in (a, b)}
                futures[self.client.submit(_play_batch, assignment, chunk, needed, factory, pure=False)] = chunk
        for fut in as_completed(list(futures)):
            chunk = futures.pop(fut)
            try:
                results = fut.result()
            except BaseException as exc:
                if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    raise
                reap_orphaned_players()                 # a worker on this machine may have died
                results = [(key, spec, infra_result("a Dask task failed", exc)) for key, spec, _, _ in chunk]
            for key, spec, result in results:
                if skip and skip(spec) and not result.infra_error:
                    continue
                yield key, spec, result

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        reap_orphaned_players()
