#!/usr/bin/env bash
# CPU demo of the training pipeline on the embedded SmolLM2-135M (2 cores, no GPU):
#   generate (20 train profiles x 2 rounds) -> harvest -> SFT (1 epoch) -> GRPO (20 steps)
#   -> attack-eval and evaluate base vs SFT vs SFT+GRPO on 20 test profiles -> one comparison table.
# Every step resumes: rerun the script after an interruption and finished work is skipped
# (generate/evaluate resume from their run directories, training from its last checkpoint).
# Usage: training/demo_cpu.sh [OUT_DIR]     (default runs/demo-cpu)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-runs/demo-cpu}
TRAIN_PROFILES=${TRAIN_PROFILES:-20}
TEST_PROFILES=${TEST_PROFILES:-20}
SFT_EXAMPLES=${SFT_EXAMPLES:-96}    # seeded subset of the harvested rows (~660 tokens each): bounds SFT time
GRPO_STEPS=${GRPO_STEPS:-20}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}   # use 1 when other jobs share the CPU (2 busy-waiting threads collapse)
SF=${STEALTHFLOW:-stealthflow}
RECIPE=training/smollm2-cpu.yaml
mkdir -p "$OUT"
step() { printf '\n== %s  (%s)\n' "$1" "$(date +%T)"; }

step "generate: $TRAIN_PROFILES train profiles x 2 rounds"
$SF generate --data data/train.jsonl --limit "$TRAIN_PROFILES" --rounds 2 --attackers llm,classifier \
    --out "$OUT/generate" --insights-out "$OUT/insights.json"

step "harvest"
# Reference (DeepSeek-V3) answers of every train profile, kept when judged correct: the
# 135M model is no attacker on its own, so these are most of the attack examples.
[ -f "$OUT/data/harvest.json" ] || $SF harvest "$OUT/generate" --out "$OUT/data" --reference-scope all

step "SFT (1 epoch on at most $SFT_EXAMPLES examples)"
$SF train sft --recipe $RECIPE --data "$OUT/data" --output-dir "$OUT/train" --set sft.max_examples="$SFT_EXAMPLES"

step "GRPO ($GRPO_STEPS steps)"
$SF train grpo --recipe $RECIPE --output-dir "$OUT/train" --set grpo.data="$OUT/data" --set grpo.max_steps="$GRPO_STEPS"

for model in base sft grpo; do  # quick check: each model as attacker on the original test texts
    adapter=$([ $model = base ] || echo "$OUT/train/$model/adapter")
    step "attack-eval $model"
    [ -f "$OUT/attack-$model.md" ] || $SF train attack-eval --limit "$TEST_PROFILES" --config training/demo-eval.yaml \
        ${adapter:+--adapter "$adapter"} -o "$OUT/attack-$model.md"
done

evaluate() {  # NAME [ADAPTER]: the model anonymizes (standard method) and attacks (llm attacker)
    local name=$1 adapter=${2:-}
    step "evaluate $name"
    $SF evaluate --out "$OUT/eval-$name" --methods standard --split test --limit "$TEST_PROFILES" \
        --attackers llm,classifier --judge-model embedded --config training/demo-eval.yaml \
        --model embedded ${adapter:+--adapter "$adapter"} > "$OUT/eval-$name.log"
}
evaluate base
evaluate sft "$OUT/train/sft/adapter"
evaluate grpo "$OUT/train/grpo/adapter"

step "compare"
$SF train compare base="$OUT/eval-base" sft="$OUT/eval-sft" grpo="$OUT/eval-grpo" -o "$OUT/comparison.md"
echo "plots: $OUT/train/sft/loss.png $OUT/train/grpo/rewards.png; table: $OUT/comparison.md"
