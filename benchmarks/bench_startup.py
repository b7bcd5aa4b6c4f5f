"""Time from `python app.py` to the first page served, and the idle app's memory.

Usage: python benchmarks/bench_startup.py [--runs 3] [--busy 2]
With --busy N the runs are repeated while N processes spin on the CPU (a machine where other
work runs), so the ratio busy/quiet within one run shows how much start-up waits on the CPU.
Writes benchmarks/results/startup.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_page(url: str, deadline_s: float) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < deadline_s:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200 and b"<html" in response.read(2048).lower():
                    return time.perf_counter() - start
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"{url} not served within {deadline_s} s")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def one_run(workdir: Path) -> dict[str, float]:
    port = free_port()
    env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", "RPS_DB": str(workdir / "bench.sqlite3")}
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "app.py", "--port", str(port)],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_page(f"http://127.0.0.1:{port}/", deadline_s=120)
        first_page_s = time.perf_counter() - started
        time.sleep(2)
        return {"first_page_s": first_page_s, "rss_mib_after_2s": rss_mib(process.pid)}
    finally:
        process.terminate()
        process.wait(timeout=30)


def _spin() -> None:
    while True:
        pass


@contextlib.contextmanager
def busy_cpu(processes: int):
    workers = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(processes)]
    for worker in workers:
        worker.start()
    try:
        yield
    finally:
        for worker in workers:
            worker.terminate()
            worker.join()


def measure(runs: int, label: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        results = [one_run(Path(tmp)) for _ in range(runs)]
    best = min(run["first_page_s"] for run in results)
    print(f"start -> first page served ({label}): best {best:.2f} s over {runs} runs")
    for run in results:
        print(f"  {run['first_page_s']:.2f} s, RSS {run['rss_mib_after_2s']:.0f} MiB")
    return {"runs": results, "best_first_page_s": best}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--busy", type=int, default=0, help="also measure beside N CPU-bound processes")
    args = parser.parse_args()
    result = measure(args.runs, "as the machine is")
    if args.busy:
        with busy_cpu(args.busy):
            busy = measure(args.runs, f"beside {args.busy} busy processes")
            result["busy"] = {"processes": args.busy, **busy}
        ratio = result["busy"]["best_first_page_s"] / result["best_first_page_s"]
        result["busy_over_quiet"] = ratio
        print(f"busy / quiet: {ratio:.2f}")
    out = REPO / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "startup.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
