#!/bin/bash
# How assets/adapters/smollm2-135m-eraser4rag/ was built: the studio's own pipeline on the first
# 40 questions of a PopQA retrieval file (the rest stay unseen for benchmarks/bench_adapter.py).
#   benchmarks/build_adapter.sh PATH/popqa_dev.jsonl WORK_DIR
# Tasks are sentence windows that mention a private triple (`annotate tasks --windows`), cut as
# eraser4rag cuts documents at inference, so the model learns to cut inside a short window
# instead of copying a whole passage. Candidates: graph-guided + verify on each window, kept by
# the paper's automatic filter only (r_pri = 0 and r_pub > 0.8); no person reviewed them. Then
# SFT on the embedded SmolLM2-135M-Instruct (LoRA on the four attention projections, lr 2e-4),
# CPU only; RL_ITERS > 0 adds a short GRPO run from it.
set -euo pipefail
DATA=${1:?retrieval JSONL file}
WORK=${2:?work folder}
SFT_STEPS=${SFT_STEPS:-150}
SFT_LR=${SFT_LR:-2e-4}
CHANGE_WEIGHT=${CHANGE_WEIGHT:-5}  # > 1: loss weighed on the target tokens where the rewrite departs from its input
RL_ITERS=${RL_ITERS:-0}
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
PY=${PYTHON:-.venv/bin/python}
DB="$WORK/annotation.sqlite3"
mkdir -p "$WORK"
head -40 "$DATA" > "$WORK/train40.jsonl"
$PY -m core.cli --annotation-db "$DB" annotate tasks "$WORK/train40.jsonl" --windows
$PY -m core.cli --annotation-db "$DB" annotate candidates --source graph-guided --verify
$PY -m core.cli --annotation-db "$DB" annotate export --filter-passed --out "$WORK/sft_all.jsonl"
$PY - "$WORK" <<'PY'
import json, random, sys
work = sys.argv[1]
rows = [json.loads(line) for line in open(f"{work}/sft_all.jsonl", encoding="utf-8")]
random.Random(0).shuffle(rows)  # the Trainer shuffles too; this fixes the order of a --max-steps cut
cut = sum(r["completion"].strip() != r["document"].strip() for r in rows)
with open(f"{work}/sft_train.jsonl", "w", encoding="utf-8") as handle:
    for row in rows:
        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
print(f"{len(rows)} filter-passed window examples; {cut} of them cut something, {len(rows) - cut} copy")
PY
$PY -m core.cli --annotation-db "$DB" train sft --out "$WORK/sft" --data "$WORK/sft_train.jsonl" \
    --epochs 1 --max-steps "$SFT_STEPS" --lr "$SFT_LR" --max-target-tokens 160 \
    --lora-targets q_proj,k_proj,v_proj,o_proj --change-weight "$CHANGE_WEIGHT"
$PY - "$WORK" "$SFT_STEPS" "$SFT_LR" "$CHANGE_WEIGHT" <<'PY'
import json, sys
work, steps, lr, weight = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = [json.loads(line) for line in open(f"{work}/sft_train.jsonl", encoding="utf-8")]
card_path = f"{work}/sft/training.json"
card = json.load(open(card_path, encoding="utf-8"))
card["recipe"] = {
    "built_by": "benchmarks/build_adapter.sh (the studio's annotation pipeline, CPU only)",
    "data": "questions 1-40 of popqa_dev.jsonl (PopQA, MIT; Wikipedia passages, CC BY-SA); 41-50 never used",
    "definition": "per question one global graph (spaCy), connected random 25 % private split, seed 0, both filters",
    "tasks": "annotate tasks --windows: one task per 2-sentence window that mentions a private triple",
    "candidates": "graph-guided + verify, kept by the paper's automatic filter only (r_pri = 0, r_pub > 0.8)",
    "reviewed_by_people": False,
    "examples": len(rows),
    "examples_that_cut": sum(r["completion"].strip() != r["document"].strip() for r in rows),
    "sft": f"TRL SFTTrainer, LoRA r=8 on q/k/v/o + the eight marker rows, lr {lr}, batch 1, {steps} steps, "
    f"loss weight on changed target tokens {weight}",
    "lr_why": "LoRA on a few hundred steps needs ~1e-4..2e-4; the paper's 5e-5 is for full Flan-T5 fine-tuning",
    "inference": "eraser4rag with --rewriter-windows always, only private windows, 2 sentences, 384 input tokens",
}
json.dump(card, open(card_path, "w", encoding="utf-8"), indent=2)
PY
if [ "$RL_ITERS" -gt 0 ]; then
    $PY -m core.cli --annotation-db "$DB" train rl --method grpo --sft "$WORK/sft" --out "$WORK/rl" \
        --data "$WORK/sft_train.jsonl" --iterations "$RL_ITERS" --group-size 2 --max-new-tokens 64
    echo "adapter: $WORK/rl (copy it to assets/adapters/smollm2-135m-eraser4rag/)"
else
    echo "adapter: $WORK/sft (copy it to assets/adapters/smollm2-135m-eraser4rag/)"
fi
