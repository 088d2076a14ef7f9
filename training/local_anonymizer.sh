#!/usr/bin/env bash
# The local per-post anonymizer, end to end on a CPU (2 cores: ~1-1.5 hours). Every step resumes
# or is skipped when rerun; outputs go under OUT only. Ship the results with:
#   cp -r OUT/cue-tagger/{tagger.json,tagger.safetensors,README.md} models/cue-tagger/
#   cp OUT/grpo/adapter/{adapter_config.json,adapter_model.safetensors} models/local-anonymizer/
set -euo pipefail
OUT=${1:-runs/local}
SF=${STEALTHFLOW:-stealthflow}
RECIPE=${RECIPE:-training/local-anonymizer.yaml}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

[ -d "$OUT/data/sft" ] || $SF harvest-posts --out "$OUT/data" --copy-share 0.12   # teacher rewrites, copies, attack rows + GRPO prompts
[ -f "$OUT/cue-tagger/tagger.safetensors" ] || $SF train cue-tagger --out "$OUT/cue-tagger" --epochs 1.5
$SF train sft --recipe "$RECIPE" --data "$OUT/data" --output-dir "$OUT"            # LoRA-SFT on the teacher rewrites
$SF train grpo --recipe "$RECIPE" --data "$OUT/data" --output-dir "$OUT" \
    --set grpo.cue_tagger="$OUT/cue-tagger"                                         # GRPO: prompts name the tagger's cues, reward = evidence
python benchmarks/local_anonymizer.py --limit 100 --out "$OUT/benchmark.json" \
    --adapter sft="$OUT/sft/adapter" --adapter grpo="$OUT/grpo/adapter"
