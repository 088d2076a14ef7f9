#!/usr/bin/env bash
# CPU demo of the training pipeline on the embedded SmolLM2-135M (2 cores, no GPU):
#   generate (20 train profiles x 2 rounds, one insight batch) -> harvest -> SFT (1 epoch on a
#   subset) -> GRPO (20 steps) -> evaluate base vs SFT vs SFT+GRPO on 20 test profiles (a seeded
#   sample, so their lengths are the test set's) -> one comparison table.
# Every step resumes: rerun the script after an interruption and finished work is skipped
# (generate/evaluate resume from their run directories, training from its last checkpoint).
# Each step's wall-clock seconds go to OUT/timings.tsv (printed at the end).
# Usage: training/demo_cpu.sh [OUT_DIR]     (default runs/demo-cpu)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-runs/demo-cpu}
TRAIN_PROFILES=${TRAIN_PROFILES:-20}
TEST_PROFILES=${TEST_PROFILES:-20}
SFT_ATTACK_EXAMPLES=${SFT_ATTACK_EXAMPLES:-48}   # seeded subset of the attack rows (all teacher rows are kept): bounds SFT time
SFT_MAX_LENGTH=${SFT_MAX_LENGTH:-1280}   # tokens; longer examples are cut: bounds SFT time
SFT_LEARNING_RATE=${SFT_LEARNING_RATE:-3e-3}   # 3x the recipe's: measured 43 vs 17 % well-formed attacks after these 48 steps
GRPO_STEPS=${GRPO_STEPS:-20}
GRPO_COMPLETION_TOKENS=${GRPO_COMPLETION_TOKENS:-64}   # generation is 3/4 of a GRPO step on CPU
GRPO_MAX_PROMPT_TOKENS=${GRPO_MAX_PROMPT_TOKENS:-720}   # longer prompts are left out: shorter steps, and more of each rewrite fits
GRPO_ATTACKER_TOKENS=${GRPO_ATTACKER_TOKENS:-64}   # answer length of the frozen SFT attacker inside the reward
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}   # use 1 when other jobs share the CPU (2 busy-waiting threads collapse)
SF=${STEALTHFLOW:-stealthflow}
RECIPE=training/smollm2-cpu.yaml
MODELS=training/demo-models.yaml
mkdir -p "$OUT"

step() {  # NAME COMMAND...: run, time, and log the wall-clock seconds
    local name=$1 start=$SECONDS
    shift
    printf '\n== %s  (%s)\n' "$name" "$(date +%T)"
    "$@"
    printf '%s\t%s\n' "$name" $((SECONDS - start)) >> "$OUT/timings.tsv"
}

# The workflow's attacker is the classifier: the 135M model is no attacker (0 % of its answers
# are well-formed), and its looping answers would only lengthen every anonymizer prompt.
step "generate" $SF generate --data data/train.jsonl --limit "$TRAIN_PROFILES" --rounds 2 --batch-size "$TRAIN_PROFILES" \
    --attackers classifier --config $MODELS --out "$OUT/generate" --insights-out "$OUT/insights.json"

# The 135M model is no attacker on its own, so the attack examples are the reference
# (DeepSeek-V3) answers of every train profile: all of them (a small model first has to learn
# to answer every attribute asked, in the format), with inferences cut to 12 words: shorter
# targets put more of the loss on the format and the guesses. Nor does it write the
# anonymizer's `#` format, so the rule-based teacher answers its unreadable turns (it removes
# the lines the attacker quoted): without one readable rewrite every GRPO reward is 0.
[ -f "$OUT/data/harvest.json" ] || step "harvest" $SF harvest "$OUT/generate" --out "$OUT/data" --reference-scope all \
    --attack-keep all --inference-words 12 --teacher quoted-lines

step "sft" $SF train sft --recipe $RECIPE --data "$OUT/data" --output-dir "$OUT/train" --set "sft.max_examples={attack: $SFT_ATTACK_EXAMPLES}" \
    --set sft.max_length="$SFT_MAX_LENGTH" --set sft.learning_rate="$SFT_LEARNING_RATE"

step "grpo" $SF train grpo --recipe $RECIPE --output-dir "$OUT/train" --set grpo.data="$OUT/data" --set grpo.max_steps="$GRPO_STEPS" \
    --set grpo.max_completion_length="$GRPO_COMPLETION_TOKENS" --set grpo.max_prompt_tokens="$GRPO_MAX_PROMPT_TOKENS" \
    --set grpo.attacker_max_new_tokens="$GRPO_ATTACKER_TOKENS"

# One response cache for the three evaluations: the judge (the base model) is asked about each
# (original, rewrite) pair once; answers of the adapters are keyed by their adapter path.
evaluate() {  # NAME [ADAPTER]: the model anonymizes (standard method) and attacks (the llm attacker is the model itself)
    local name=$1 adapter=${2:-}
    step "evaluate $name" $SF evaluate --out "$OUT/eval-$name" --methods standard --split test --limit "$TEST_PROFILES" --sample-seed 0 \
        --attackers llm,classifier --config $MODELS --cache "$OUT/eval-responses.sqlite" ${adapter:+--adapter "$adapter"}
}
evaluate base
evaluate sft "$OUT/train/sft/adapter"
evaluate grpo "$OUT/train/grpo/adapter"

$SF train compare base="$OUT/eval-base" sft="$OUT/eval-sft" grpo="$OUT/eval-grpo" -o "$OUT/comparison.md"
# Seconds per step, summed over reruns (a resumed step adds the time of each attempt).
awk -F'\t' '!($1 in t) { order[n++] = $1 } { t[$1] += $2; total += $2 }
    END { for (i = 0; i < n; i++) printf "%-16s %5d s\n", order[i], t[order[i]]; printf "%-16s %5d s\n", "total", total }' "$OUT/timings.tsv"
echo "plots: $OUT/train/sft/loss.png $OUT/train/grpo/rewards.png; per-attribute attack tables: $OUT/eval-*/attack_accuracy.md; table: $OUT/comparison.md"
