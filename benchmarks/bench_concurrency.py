"""Is a second user served while a first user's long extraction runs?

Starts the real studio (subprocess, 127.0.0.1, temp SQLite) and drives it with two
gradio_client sessions over HTTP. User B extracts a small story alone (baseline), then
again while user A extracts a long document. Run once with the old behaviour
(`--concurrency 1`: Gradio's default of one call per event at a time) and once with the
studio's default, in one run so the ratios compare.

Usage: python benchmarks/bench_concurrency.py [--long-kb 60] [--concurrency 4]
Writes benchmarks/results/concurrency.json.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results"
# A small story (user B) and the sentences a long document (user A) is built from.
SMALL = (
    "Ada Brook works for Zephyr Labs. Zephyr Labs is located in Northport. Ada Brook plays the violin. "
    "Ada Brook lives in Northport. Ben Cole works for Zephyr Labs. Ben Cole was born in Harrow Vale."
)
LONG_SENTENCES = [
    "Mara Voss works for Lindqvist Robotics.",
    "Lindqvist Robotics is located in Harrow Vale.",
    "Henrik Lindqvist founded Lindqvist Robotics in 2009.",
    "Priya Okafor treats Tomas Reyl at Saint Alder Clinic.",
    "Tomas Reyl lives at 14 Birch Lane in Eastmere.",
    "Elin Voss teaches mathematics at Harrow Vale School.",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def long_text(kilobytes: int) -> str:
    """Distinct sentences (names numbered) up to `kilobytes` of text, in paragraphs."""
    parts, size, index = [], 0, 0
    while size < kilobytes * 1000:
        sentence = LONG_SENTENCES[index % len(LONG_SENTENCES)].replace("Voss", f"Voss{index // 6}")
        parts.append(sentence + ("\n\n" if index % 8 == 7 else " "))
        size += len(parts[-1])
        index += 1
    return "".join(parts)


def start_studio(workdir: Path, concurrency: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1"}
    process = subprocess.Popen(
        [
            sys.executable,
            "app.py",
            "--port",
            str(port),
            "--db",
            str(workdir / f"c{concurrency}.sqlite3"),
            "--concurrency",
            str(concurrency),
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return process, url
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise TimeoutError(f"the studio did not start at {url}")


def session(url: str, title: str, text: str):
    """A gradio_client session (one studio user) with an empty workspace holding one document."""
    from gradio_client import Client

    client = Client(url, verbose=False)
    client.predict(api_name="/clear_workspace_confirmed")
    client.predict(title, text, api_name="/add_text")
    return client


def timed_extract(client) -> float:
    started = time.perf_counter()
    client.predict("spacy", api_name="/extract")
    return time.perf_counter() - started


def small_runs(url: str, runs: int) -> list[float]:
    return [timed_extract(session(url, f"small {index}", SMALL)) for index in range(runs)]


def measure(url: str, long_kb: int, runs: int) -> dict[str, float]:
    # Warm-up as a server in use would be: spaCy loaded here, and a worker process warm.
    timed_extract(session(url, "warm-up", SMALL))
    timed_extract(session(url, "warm-up long", long_text(60)))
    alone = statistics.median(small_runs(url, runs))

    long_client = session(url, "long", long_text(long_kb))
    long_time: dict[str, float] = {}

    def run_long() -> None:
        long_time["s"] = timed_extract(long_client)

    thread = threading.Thread(target=run_long)
    thread.start()
    time.sleep(1.0)  # A's extraction is under way
    during_runs = small_runs(url, runs)
    still_running = thread.is_alive()
    thread.join()
    worst = max(during_runs)  # the first run waits longest when the queue blocks
    return {
        "small_alone_median_s": round(alone, 3),
        "small_during_long_median_s": round(statistics.median(during_runs), 3),
        "small_during_long_max_s": round(worst, 3),
        "worst_delay_s": round(worst - alone, 3),
        "worst_delay_over_own_duration": round((worst - alone) / alone, 2),
        "long_s": round(long_time["s"], 2),
        "long_still_running_after_small_runs": still_running,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long-kb", type=int, default=60, help="size of user A's document")
    parser.add_argument("--concurrency", type=int, default=4, help="the studio setting to compare with 1")
    parser.add_argument("--runs", type=int, default=5, help="small extractions per condition (median)")
    parser.add_argument("--skip-old", action="store_true", help="skip the --concurrency 1 comparison")
    args = parser.parse_args()
    results: dict[str, object] = {"long_kb": args.long_kb}
    with tempfile.TemporaryDirectory() as folder:
        for concurrency in (args.concurrency,) if args.skip_old else (1, args.concurrency):
            process, url = start_studio(Path(folder), concurrency)
            try:
                results[f"concurrency_{concurrency}"] = measure(url, args.long_kb, args.runs)
            finally:
                process.terminate()
                process.wait(timeout=20)
            print(concurrency, results[f"concurrency_{concurrency}"], flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "concurrency.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
