"""Run batch erasure records on Ray: a local Ray by default, or a cluster address.

Records are submitted in a bounded window and their results come back in input order,
so OUT is written exactly as the plain run writes it. Ray is optional
(`requirements-ray.txt`); without it the command says how to install it.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.eraser4rag.erasers.batch import EraseOptions, Item, process_record

REPO_ROOT = Path(__file__).resolve().parents[3]


def ray_runner(address: str | None):
    """A batch runner (see `core.eraser4rag.erasers.batch.erase_file`) that runs each record as a Ray task."""

    def run(items: list[Item], options: EraseOptions) -> Iterator[dict[str, Any]]:
        try:
            # Ray is an optional extra (requirements-ray.txt), loaded only by the Ray runner
            import ray
        except ImportError as exc:
            raise RuntimeError("--ray needs Ray: pip install -r requirements-ray.txt") from exc
        if not ray.is_initialized():
            init_ray(address)
        task = ray.remote(process_record)
        window = max(2, int(ray.available_resources().get("CPU", 2)) * 2)
        pending: deque[Any] = deque()
        for record, file, line in items:
            pending.append(task.remote(record, file, line, options))
            if len(pending) >= window:
                yield ray.get(pending.popleft())
        while pending:
            yield ray.get(pending.popleft())

    return run


def init_ray(address: str | None = None, num_cpus: int | None = None) -> None:
    """Start (or join, with an address) Ray so that its workers can import the studio."""
    # Ray is an optional extra (requirements-ray.txt), loaded only by the Ray runner
    import ray

    # workers import `core` from this checkout on a local Ray; a cluster needs the package installed
    path = os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {"PYTHONPATH": path, "TOKENIZERS_PARALLELISM": "false"}
    for name in ("RPS_CACHE_DIR", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):  # keys stay out of Ray's logs
        if name in os.environ:
            env[name] = os.environ[name]
    ray.init(
        address=address or None,
        runtime_env={"env_vars": env},
        include_dashboard=False,
        log_to_driver=False,
        ignore_reinit_error=True,
        **({"num_cpus": num_cpus} if num_cpus and not address else {}),
    )
