#!/bin/bash
# Rebuilds assets/adapters/smollm2-135m-eraser4rag/ (the deletion tagger of eraser4rag) from a PopQA
# retrieval file, CPU only, seed 0:
#   benchmarks/build_adapter.sh PATH/popqa_dev.jsonl WORK_DIR
# 1. Data (core.eraser4rag.training.edit_data): the first 40 questions. Per question its global
#    graph, the connected random 25 % private split (seed 0); graph-guided + verify rewrites every
#    passage; every 2-sentence window that mentions a private triple gets its part of that rewrite
#    as the target, kept only when the target has no broken construction
#    (core.eraser4rag.erasers.fluency) and no strict or partial leak (independent string grading).
#    Questions 41-50 get the same windows, used only to score the tagger's words (never to train or
#    to choose anything). No person reviewed them.
# 2. Tagger (core.eraser4rag.training.tagger): the embedded SmolLM2-135M reads the triples and the
#    window; a logistic-regression head over each word's hidden states and flags learns which words
#    the target deletes. Threshold: the highest whose validation windows (the last tenth of the
#    training windows) leak at most 5 % of their private facts. Then RL_ITERS iterations of
#    group-relative policy gradient with R = r_pub * exp(-20 r_pri) * fluency; the RL head is kept
#    only when it scores better on the validation windows.
# 3. Held-back scores (benchmarks/bench_adapter.py) on questions 41-(40+EVAL_RECORDS), every passage
#    holding a private triple, beside graph-guided + verify and mask.
# WORK_DIR/tagger then holds tagger.safetensors, training.json (curve, RL log, data summary, word
# scores, the validation table per threshold) and heldback.json; copy it to
# assets/adapters/smollm2-135m-eraser4rag/ when it measures better.
set -euo pipefail
DATA=${1:?retrieval JSONL file}
WORK=${2:?work folder}
RL_ITERS=${RL_ITERS:-60}
EVAL_RECORDS=${EVAL_RECORDS:-10}
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
PY=${PYTHON:-.venv/bin/python}
mkdir -p "$WORK"
$PY -m core.eraser4rag.training.edit_data "$DATA" --first 40 --out "$WORK/train.jsonl" --summary "$WORK/data_summary.json"
$PY -m core.eraser4rag.training.edit_data "$DATA" --skip 40 --first 50 --out "$WORK/heldback.jsonl" \
    --summary "$WORK/heldback_summary.json"
$PY -m core.eraser4rag.training.tagger "$WORK/train.jsonl" --out "$WORK/tagger" --heldback "$WORK/heldback.jsonl" \
    --summary "$WORK/data_summary.json" --features-cache "$WORK/features" --rl-iterations "$RL_ITERS"
$PY benchmarks/bench_adapter.py "$DATA" --skip 40 --records "$EVAL_RECORDS" --passages 25 \
    --erasers "eraser4rag@$WORK/tagger,graph-guided+verify,mask" --results "$WORK/tagger/heldback.json"
echo "tagger: $WORK/tagger (copy it to assets/adapters/smollm2-135m-eraser4rag/ if it measures better)"
