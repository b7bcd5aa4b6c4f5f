#!/bin/bash
# Rebuilds assets/adapters/smollm2-135m-eraser4rag/ (the edit-script rewriter) from a PopQA
# retrieval file, CPU only, seed 0:
#   benchmarks/build_adapter.sh PATH/popqa_dev.jsonl WORK_DIR
# 1. Data (core.eraser4rag.training.edit_data): the first 40 questions (41-50 stay held back). Per question
#    its global graph, the connected random 25 % private split (seed 0); graph-guided + verify
#    rewrites every passage; every 2-sentence window that mentions a private triple gets the
#    edit script (CUT/DEL/REP..BY/KEEP) of its part of that rewrite, kept only when the applied
#    script has no broken construction (core.eraser4rag.erasers.fluency) and no strict or partial leak
#    (core.eraser4rag.erasers.leaks grading). No person reviewed them.
# 2. SFT (core.eraser4rag.training.edit_adapter): TRL SFTTrainer, LoRA r=8 on q/k/v/o of the top 8 layers,
#    lr SFT_LR, batch 1, SFT_STEPS steps or SFT_MINUTES minutes (whichever ends first), on the
#    edit form's prompt; copying (KEEP) examples cut to COPY_SHARE of the data.
# 3. Held-back scores (benchmarks/bench_adapter.py) on questions 41-(40+EVAL_RECORDS), all
#    passages holding a private triple, beside graph-guided + verify and mask.
# WORK_DIR/adapter then holds the adapter, training.json (curve, recipe), data_summary.json and
# heldback.json; copy it to assets/adapters/smollm2-135m-eraser4rag/ when it measures better.
# No RL step: GRPO on edit scripts is not implemented (see README).
set -euo pipefail
DATA=${1:?retrieval JSONL file}
WORK=${2:?work folder}
SFT_STEPS=${SFT_STEPS:-240}
SFT_LR=${SFT_LR:-5e-4}
SFT_MINUTES=${SFT_MINUTES:-57}
COPY_SHARE=${COPY_SHARE:-0.05}
EVAL_RECORDS=${EVAL_RECORDS:-10}
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
PY=${PYTHON:-.venv/bin/python}
mkdir -p "$WORK"
$PY -m core.eraser4rag.training.edit_data "$DATA" --first 40 --out "$WORK/edit_train.jsonl" --summary "$WORK/data_summary.json"
$PY -m core.eraser4rag.training.edit_adapter "$WORK/edit_train.jsonl" --out "$WORK/adapter" --steps "$SFT_STEPS" \
    --lr "$SFT_LR" --max-minutes "$SFT_MINUTES" --copy-share "$COPY_SHARE" --summary "$WORK/data_summary.json"
$PY benchmarks/bench_adapter.py "$DATA" --skip 40 --records "$EVAL_RECORDS" --passages 25 \
    --erasers "eraser4rag@$WORK/adapter,graph-guided+verify,mask" --results "$WORK/adapter/heldback.json"
echo "adapter: $WORK/adapter (copy it to assets/adapters/smollm2-135m-eraser4rag/ if it measures better)"
