#!/bin/bash
# How assets/adapters/smollm2-135m-eraser4rag/ was built: the studio's own pipeline on the first
# 40 questions of a PopQA retrieval file (the rest stay unseen for benchmarks/bench_adapter.py).
#   benchmarks/build_adapter.sh PATH/popqa_dev.jsonl WORK_DIR
# Candidates: graph-guided + verify, kept by the paper's automatic filter only (r_pri = 0 and
# r_pub > 0.8); no person reviewed them. Then SFT on the embedded SmolLM2-135M-Instruct and a
# short PPO run from it, on CPU (about 40 minutes on the shared, loaded 2-core development machine:
# SFT 23 min, PPO 15 min; candidates and tasks ~1 min).
set -euo pipefail
DATA=${1:?retrieval JSONL file}
WORK=${2:?work folder}
SFT_EXAMPLES=${SFT_EXAMPLES:-100}
SFT_STEPS=${SFT_STEPS:-25}
RL_ITERS=${RL_ITERS:-2}
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
PY=${PYTHON:-.venv/bin/python}
DB="$WORK/annotation.sqlite3"
mkdir -p "$WORK"
head -40 "$DATA" > "$WORK/train40.jsonl"
$PY -m core.cli --annotation-db "$DB" annotate tasks "$WORK/train40.jsonl"
$PY -m core.cli --annotation-db "$DB" annotate candidates --source graph-guided --verify
$PY -m core.cli --annotation-db "$DB" annotate export --filter-passed --out "$WORK/sft_all.jsonl"
$PY - "$WORK" "$SFT_EXAMPLES" <<'PY'
import json, random, sys
work, count = sys.argv[1], int(sys.argv[2])
rows = [json.loads(line) for line in open(f"{work}/sft_all.jsonl", encoding="utf-8")]
random.Random(0).shuffle(rows)
with open(f"{work}/sft_train.jsonl", "w", encoding="utf-8") as handle:
    for row in rows[:count]:
        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
print(f"{len(rows)} filter-passed examples; {min(count, len(rows))} kept for SFT")
PY
$PY -m core.cli --annotation-db "$DB" train sft --out "$WORK/sft" --data "$WORK/sft_train.jsonl" \
    --epochs 1 --max-steps "$SFT_STEPS" --lr 2e-4 --max-input-tokens 512 --max-target-tokens 256
$PY -m core.cli --annotation-db "$DB" train rl --sft "$WORK/sft" --out "$WORK/rl" --data "$WORK/sft_train.jsonl" \
    --iterations "$RL_ITERS" --group-size 2 --max-new-tokens 64 --max-input-tokens 512
echo "adapter: $WORK/rl (copy it to assets/adapters/smollm2-135m-eraser4rag/)"
