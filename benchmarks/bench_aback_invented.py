"""Decoding speed of ABack with and without the invented-specifics rule (`aback_ban_invented`).

    .venv/bin/python benchmarks/bench_aback_invented.py PII.json [--pairs 8] [--max-new-tokens 32]

The first `--pairs` record pairs of the leak benchmark (`benchmarks.lib.pii_leak`: held-out records of a
presidio-research-format file, the repeat attack, automatic indicators) are answered by ABack with the
rule off and on, alternately, so machine noise hits both alike. Only answers with a backtrack count
(the rule acts after one); tokens/s = sampled tokens / wall time, prefills and HSM runs included.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from benchmarks.lib.pii_eval import load_pii_records, split_records  # noqa: E402
from benchmarks.lib.pii_leak import QUESTION, record_pairs  # noqa: E402
from core.aback.baselines import rag_messages  # noqa: E402
from core.aback.config import ABackConfig  # noqa: E402
from core.aback.data import attack_query  # noqa: E402
from core.aback.decode import run_guarded  # noqa: E402
from core.aback.indicators import collect_indicators  # noqa: E402
from core.model_loading import get_causal_lm  # noqa: E402
from core.settings import from_env  # noqa: E402
from core.types import Document  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("--pairs", type=int, default=8)
    parser.add_argument("--max-new-tokens", type=int, default=32)
    args = parser.parse_args()
    settings = from_env()
    lm = get_causal_lm(settings.local_lm, settings.cache_dir)
    _dev, held_out = split_records(load_pii_records(args.data))
    question = attack_query(QUESTION, "repeat")
    rates: dict[bool, list[float]] = {False: [], True: []}
    run_guarded([{"role": "user", "content": "Hi"}], ["x"], ABackConfig(max_new_tokens=4), lm=lm)  # warm-up
    for pair in record_pairs(held_out, args.pairs):
        documents = [Document(f"r{i}", "", record.full_text) for i, record in enumerate(pair)]
        indicators = [item.text for item in collect_indicators([doc.text for doc in documents])]
        for ban in (False, True):
            config = ABackConfig(max_new_tokens=args.max_new_tokens, ban_invented=ban)
            messages = rag_messages(question, documents)
            result = run_guarded(messages, indicators, config, lm=lm, question=question)
            if result.events:
                rates[ban].append(result.generated_tokens / result.wall_s)
    if not rates[False] or not rates[True]:
        print("no answer backtracked: nothing to compare", file=sys.stderr)
        return 1
    for ban in (False, True):
        print(
            f"ban_invented={ban}: {len(rates[ban])} answers with a backtrack, "
            f"tokens/s mean {statistics.mean(rates[ban]):.2f}, median {statistics.median(rates[ban]):.2f}"
        )
    print(f"ratio on / off (means): {statistics.mean(rates[True]) / statistics.mean(rates[False]):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
