"""What SFT and GRPO share: where data lives, resuming, and saving a finished stage.

A stage directory (`<output_dir>/sft`, `<output_dir>/grpo`) holds `checkpoints/` while
training, then `adapter/` (+ tokenizer and chat template), `log.jsonl`, a PNG curve,
`recipe.yaml` and `run_info.json`. `run_info.json` with `finished: true` is written last, so
a stage without it is (re)trained, resuming from its last checkpoint.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

FINISHED = "finished"


def dataset_dir(data: str | Path, part: str) -> Path:
    """`part` of a harvest output (`sft`/`grpo`), or `data` itself if it already is a dataset."""
    data = Path(data)
    candidate = data / part
    if (candidate / "dataset_info.json").exists():
        return candidate
    if (data / "dataset_info.json").exists():
        return data
    raise FileNotFoundError(f"{data}: no `{part}` dataset (make one with `stealthflow harvest RUN --out {data}`)")


def already_finished(directory: Path, on_skip: Callable[[str], None] | None = None) -> bool:
    """True (after telling `on_skip`) when the stage finished before: it is not trained again."""
    info = directory / "run_info.json"
    if not (info.exists() and json.loads(info.read_text(encoding="utf-8")).get(FINISHED, False)):
        return False
    if on_skip:
        on_skip(f"{directory / 'adapter'} is already trained (delete {directory} to train again)")
    return True


def train_and_save(trainer, directory: Path) -> dict:
    """Train (resuming from the last checkpoint), save adapter + tokenizer and the log; returns run facts."""
    from transformers.trainer_utils import get_last_checkpoint

    checkpoints = Path(trainer.args.output_dir)
    resume = get_last_checkpoint(str(checkpoints)) if checkpoints.is_dir() else None
    result = trainer.train(resume_from_checkpoint=resume)
    adapter = directory / "adapter"
    trainer.save_model(str(adapter))
    trainer.processing_class.save_pretrained(str(adapter))
    history = trainer.state.log_history
    (directory / "log.jsonl").write_text("".join(json.dumps(entry) + "\n" for entry in history), encoding="utf-8")
    return {
        "steps": trainer.state.global_step,
        "resumed_from": resume,
        "train_runtime": result.metrics.get("train_runtime"),
        FINISHED: True,
    }
