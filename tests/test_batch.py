"""`stealthflow.batch` without Ray: blocks, the manifest, vault shards and their merge, the
detection actor's work on a batch (tests/test_batch_ray.py runs it on Ray)."""

import base64
import json
import os
from pathlib import Path

import pandas as pd
import pytest

from stealthflow.batch.blocks import file_identity, input_files, plan_blocks, read_block
from stealthflow.batch.output import JobMismatch, JobOutput
from stealthflow.batch.shards import ShardError, merge_shards, open_shard
from stealthflow.batch.workers import ERROR, META, Detect, Rewrite, each_alone, strings
from stealthflow.config import Settings
from stealthflow.data import DataError
from stealthflow.placeholders.keys import VaultKeyError, VaultKeys
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.placeholders.vault import Vault


def _jsonl(path: Path, records: list) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_jsonl_blocks_hold_every_line_once_whatever_the_block_size(tmp_path):
    records = [{"id": i, "text": "é" * (i * 37 % 300)} for i in range(60)]
    path = _jsonl(tmp_path / "a.jsonl", records)
    files = input_files(str(path))
    for block_bytes in (7, 64, 1000, 10**6):
        blocks = plan_blocks(files, block_bytes)
        rows = [row for block in blocks for row in read_block(block)]
        assert [row.record for row in rows] == records, block_bytes
        assert len({row.row for row in rows}) == len(rows)
        assert [b.id for b in blocks] == sorted(b.id for b in blocks)


def test_a_bad_line_is_a_row_with_a_reason_and_blank_lines_are_skipped(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"id": 1, "text": "a"}\n\nnot json\n[1]\n\xff\xfe\n{"id": 2, "text": "b"}\n{"text": "a\tb"}\n')
    (block,) = plan_blocks(input_files(str(path)))
    rows = list(read_block(block))
    assert [r.error for r in rows] == [
        "",
        "not valid JSON (Expecting value at column 1)",
        "not a JSON object",
        "the line is not UTF-8 text",
        "",
        "not valid JSON (Invalid control character at column 12)",  # ux24: "... at at column"
    ]
    assert rows[-2].record == {"id": 2, "text": "b"}


def test_a_line_nested_too_deep_or_with_a_too_long_number_is_a_failed_row_not_a_crash(tmp_path):
    """rev31: a line of arrays nested past Python's stack raised RecursionError out of the block reader (and a number
    of more digits than Python converts a bare ValueError): each is a row with its reason, the others read."""
    path = tmp_path / "a.jsonl"
    deep = '{"id": 1, "text": "a", "m": ' + "[" * 100_000 + "]" * 100_000 + "}"
    path.write_text(deep + "\n" + '{"id": ' + "9" * 5_000 + ', "text": "b"}\n{"id": 2, "text": "c"}\n')
    (block,) = plan_blocks(input_files(str(path)))
    rows = list(read_block(block))
    assert [r.error for r in rows] == [
        "not valid JSON (arrays or objects nested too deep at column 1)",
        "not valid JSON (a number of too many digits at column 1)",
        "",
    ]


def test_a_row_with_a_lone_surrogate_fails_alone_before_pandas_sees_it(tmp_path):
    """rev27 M2: one row whose text, id or kept column held a lone surrogate failed the whole block (pandas cannot hold
    one), on every rerun: it fails alone, named by its line (its values dropped), and the other rows are read."""
    from stealthflow.batch.job import read_blocks
    from stealthflow.pipeline.records import has_lone_surrogate

    rows = [
        {"id": "r1", "text": "Mail sam.lee@example.org", "note": "n1"},
        {"id": "r2", "text": "lone \ud800 surrogate and sam.lee@example.org", "note": "n2"},
        {"id": "r3\udfff", "text": "an id with one", "note": "n3"},
        {"id": "r4", "text": "a kept column with one", "note": {"deep": ["x\udc80"]}},
        {"id": "r5", "text": "Fine.", "note": "n5"},
    ]
    (block,) = plan_blocks(input_files(str(_jsonl(tmp_path / "in.jsonl", rows))))
    frame = read_blocks(pd.DataFrame([block.to_json()]), "text", "id", ("note",))
    assert strings(frame[ERROR]) == [
        None,
        "its 'text' field holds a lone surrogate (invalid Unicode)",
        "its 'id' field holds a lone surrogate (invalid Unicode)",
        "its 'note' field holds a lone surrogate (invalid Unicode)",
        None,
    ]
    assert strings(frame["_id"]) == ["r1", None, None, None, "r5"]
    assert strings(frame["text"]) == ["Mail sam.lee@example.org", None, None, None, "Fine."]
    assert frame["_keep"].tolist() == ['{"note": "n1"}', "{}", "{}", "{}", '{"note": "n5"}']
    assert not any(has_lone_surrogate(str(value)) for value in frame.to_numpy().ravel())


def test_parquet_blocks_are_row_groups_numbered_through_the_file(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "a.parquet"
    pq.write_table(pa.table({"id": list(range(10)), "text": [f"t{i}" for i in range(10)]}), path, row_group_size=4)
    blocks = plan_blocks(input_files(str(tmp_path)))
    assert len(blocks) == 3 and all(b.size > 0 for b in blocks)
    rows = [row for block in blocks for row in read_block(block)]
    assert [r.row for r in rows] == list(range(10)) and rows[5].record == {"id": 5, "text": "t5"}


def test_inputs_a_folder_or_a_glob_and_a_clear_error_for_nothing(tmp_path):
    _jsonl(tmp_path / "b.jsonl", [{"text": "x"}])
    (tmp_path / "sub").mkdir()
    _jsonl(tmp_path / "sub" / "a.jsonl", [{"text": "y"}])
    (tmp_path / "notes.txt").write_text("ignored in a folder")
    assert [Path(f.path).name for f in input_files(str(tmp_path))] == ["b.jsonl", "a.jsonl"]
    assert [Path(f.path).name for f in input_files(str(tmp_path / "*.jsonl"))] == ["b.jsonl"]
    with pytest.raises(DataError, match="no input files"):
        input_files(str(tmp_path / "nothing-*.parquet"))
    with pytest.raises(DataError, match="not a JSONL or Parquet"):
        input_files(str(tmp_path / "notes.txt"))


JOB = {"session": "s", "inputs": [{"path": "a", "size": 1, "mtime_ns": 1}]}


def test_manifest_resumes_the_blocks_done_and_drops_a_torn_line_and_an_unlisted_part(tmp_path):
    out = JobOutput(tmp_path, JOB)
    out.record("00000-000000000000", ['{"id": "a"}\n'], 1, [])
    out.record("00000-000000000010", [], 0, [{"id": "b", "row": 10, "block": "00000-000000000010", "reason": "r"}])
    out.close()
    assert sorted(path.name for path in tmp_path.glob("part-*")) == ["part-00000-000000000000.jsonl"]  # ux24: no empty
    (tmp_path / "part-00000-000000000020.jsonl").write_text('{"id": "c"}\n')  # renamed, then killed before its line
    with (tmp_path / "manifest.jsonl").open("a") as handle:
        handle.write('{"block": "00000-0000000')  # killed mid-line
    again = JobOutput(tmp_path, JOB)
    assert set(again.done) == {"00000-000000000000", "00000-000000000010"}
    assert again.rows() == 1 and [f["id"] for f in again.failures()] == ["b"]
    assert not (tmp_path / "part-00000-000000000020.jsonl").exists()
    assert (tmp_path / "manifest.jsonl").read_text().endswith("}\n")
    assert (tmp_path / "part-00000-000000000000.jsonl").read_text() == '{"id": "a"}\n'
    assert again.done["00000-000000000010"]["part"] is None and again.finished_rows("00000-000000000010") == []
    again.forget(["00000-000000000010"])
    assert set(again.done) == {"00000-000000000000"}


def test_manifest_refuses_another_job_and_a_second_writer(tmp_path):
    first = JobOutput(tmp_path, JOB)
    with pytest.raises(JobMismatch, match="another run is writing"):
        JobOutput(tmp_path, JOB)
    first.close()
    with pytest.raises(JobMismatch, match="inputs"):
        JobOutput(tmp_path, {**JOB, "inputs": file_identity([])})


@pytest.mark.parametrize("named", ["absolute", "../victim.jsonl", "part-00000-000000000010.jsonl"])
def test_a_manifest_naming_another_part_file_is_refused_and_nothing_is_deleted(tmp_path, named):
    """rev27 L1: a resume read and deleted whatever file a block's `"part"` named (`/abs`, `../x`, another block's);
    only `part_name(block)` in the folder is taken. A symbolic link planted for a file the job writes is not written
    through."""
    victim = tmp_path / "victim.jsonl"
    victim.write_text('{"id": "my own notes"}\n')
    out_dir = tmp_path / "out"
    out = JobOutput(out_dir, JOB)
    out.record("00000-000000000000", ['{"id": "a"}\n'], 1, [])
    out.close()
    manifest = out_dir / "manifest.jsonl"
    job, block = manifest.read_text().splitlines()
    part = str(victim) if named == "absolute" else named
    manifest.write_text(job + "\n" + json.dumps({**json.loads(block), "part": part}) + "\n")
    with pytest.raises(JobMismatch, match="names a part file that is not its block's own"):
        JobOutput(out_dir, JOB)
    assert victim.read_text() == '{"id": "my own notes"}\n'
    assert (out_dir / "part-00000-000000000000.jsonl").exists()

    manifest.write_text(job + "\n" + block + "\n")
    again = JobOutput(out_dir, JOB)
    (out_dir / "part-00000-000000000020.jsonl.tmp").symlink_to(victim)
    with pytest.raises(JobMismatch, match="is a symbolic link"):
        again.record("00000-000000000020", ['{"id": "b"}\n'], 1, [])
    assert victim.read_text() == '{"id": "my own notes"}\n'
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "manifest.jsonl").symlink_to(tmp_path / "created.jsonl")  # dangling: a new job would create it
    with pytest.raises(JobMismatch, match="is a symbolic link"):
        JobOutput(elsewhere, JOB)
    assert not (tmp_path / "created.jsonl").exists()
    other = json.dumps({"job": {**JOB, "session": "another"}}) + "\n"
    (tmp_path / "created.jsonl").write_text(other)  # linked to a file that exists: refused as a link, not another job
    with pytest.raises(JobMismatch, match="manifest.jsonl is a symbolic link"):
        JobOutput(elsewhere, JOB)
    assert (tmp_path / "created.jsonl").read_text() == other


def test_a_rerun_with_other_detection_settings_is_another_job(tmp_path):
    from stealthflow.batch.job import Job

    tagged, untagged = Settings(), Settings()
    tagged.protect, untagged.protect = ProtectConfig(tagger=True), ProtectConfig(tagger=False)
    JobOutput(tmp_path, Job().describe("v", [], tagged)).close()
    with pytest.raises(JobMismatch, match="detection"):
        JobOutput(tmp_path, Job().describe("v", [], untagged))
    JobOutput(tmp_path, Job().describe("v", [], tagged)).close()


def _keys() -> VaultKeys:
    return VaultKeys.from_secret(base64.urlsafe_b64decode(os.environ["STEALTHFLOW_VAULT_KEY"]))


def _config(tmp_path: Path, **extra) -> ProtectConfig:
    return ProtectConfig(vault_path=tmp_path / "vault.sqlite", style="hmac", **extra)


def test_shards_merge_into_one_vault_with_the_same_placeholders(tmp_path):
    config = _config(tmp_path)
    vault = Vault(config.vault_path, _keys())
    shards = tmp_path / "shards"
    one = open_shard(config, shards, vault.id, vault.key_check())
    two = open_shard(config, shards, vault.id, vault.key_check())
    a = one.issue("default", "s", [("EMAIL", "a@x.org"), ("PERSON", "Ann Lee")]).entries
    b = two.issue("default", "s", [("EMAIL", "a@x.org"), ("EMAIL", "b@x.org")]).entries
    assert a[0].token == b[0].token and a[0].index == b[0].index == 1  # same token; indices are per shard
    one.close(), two.close()
    assert merge_shards(shards, vault, config) == 4
    assert list(shards.glob("shard-*")) == []
    for entry, value in [(a[0], "a@x.org"), (a[1], "Ann Lee"), (b[1], "b@x.org")]:
        assert vault.lookup("default", "s", entry.type, token=entry.token) == value
    assert vault.lookup("default", "other", "EMAIL", token=a[0].token) is None  # the session's scope holds
    assert merge_shards(shards, vault, config) == 0


def test_merge_names_a_token_that_differs_in_the_vault_and_keeps_the_shard(tmp_path):
    config = _config(tmp_path)
    vault = Vault(config.vault_path, _keys())
    shards = tmp_path / "shards"
    shard = open_shard(config, shards, vault.id, vault.key_check())
    entry = shard.issue("default", "s", [("EMAIL", "a@x.org")]).entries[0]
    shard.close()
    # A fake of a truncated-HMAC collision: the vault already holds another value under this token.
    with vault._transaction() as db:
        db.execute("INSERT INTO entries VALUES ('x', 'default', 's', 'EMAIL', 'd', 9, ?, x'00', x'00')", (entry.token,))
    with pytest.raises(ShardError, match=rf"\[\[EMAIL:{entry.token}\]\] \(the vault's: \[\[EMAIL:{entry.token}"):
        merge_shards(shards, vault, config)
    assert len(list(shards.glob("shard-*.sqlite"))) == 1


def test_a_worker_with_another_key_is_refused(tmp_path, monkeypatch):
    config = _config(tmp_path)
    vault = Vault(config.vault_path, _keys())
    monkeypatch.setenv("STEALTHFLOW_VAULT_KEY", base64.urlsafe_b64encode(b"\x01" * 32).decode())
    with pytest.raises(VaultKeyError, match="same key"):
        open_shard(config, tmp_path / "shards", vault.id, vault.key_check())
    assert list((tmp_path / "shards").glob("*")) == []


def test_detect_isolates_a_failing_row_and_never_passes_its_text_on(tmp_path, caplog):
    settings = Settings()
    settings.protect = _config(tmp_path, tagger=False)
    vault = Vault(settings.protect.vault_path, _keys())
    detect = Detect(settings, "s", str(tmp_path / "shards"), vault.id, vault.key_check(), "body")
    real = detect.protector.protect_many

    def protect_many(texts, session):  # a fake failure: a detector that raises on one text
        if "BOOM" in " ".join(texts):
            raise RuntimeError(f"detector broke on {texts}")  # a message quoting the text
        return real(texts, session)

    detect.protector.protect_many = protect_many
    caplog.set_level("ERROR", "stealthflow.batch")
    batch = pd.DataFrame({"body": ["mail a@x.org", "BOOM a@x.org", None, "fine"], "other": [1, 2, 3, 4]})
    result = detect(batch)
    meta = json.loads(result[META][0])
    assert strings(result["body"]) == ["mail " + meta["spans"][0]["placeholder"], None, None, "fine"]
    assert strings(result[ERROR]) == [
        None,
        "RuntimeError (the worker's log has the traceback)",
        "no string 'body' field",
        None,
    ]
    assert result["other"].tolist() == [1, 2, 3, 4]
    assert "RuntimeError" in caplog.text and "BOOM" not in caplog.text  # the log says where, not what
    assert meta["vault"] == vault.id and meta["session"] == "s" and meta["spans"][0]["type"] == "EMAIL"


def test_detect_refuses_a_row_whose_id_holds_a_value_and_drops_the_id(tmp_path):
    """rev21 finding 8: a job's id column went raw into its part files and its manifest's failed rows. A row whose id
    holds a value detection finds fails with the reason, and its id is gone from what the manifest gets."""
    settings = Settings()
    settings.protect = _config(tmp_path, tagger=False)
    vault = Vault(settings.protect.vault_path, _keys())
    detect = Detect(settings, "s", str(tmp_path / "shards"), vault.id, vault.key_check(), "body")
    ids = ["r1", "dana.kerr@mailbox.org", "in.jsonl:3"]
    result = detect(pd.DataFrame({"_id": ids, "body": ["mail a@x.org", "my email is dana.kerr@mailbox.org", "hi"]}))
    assert strings(result["_id"]) == ["r1", None, "in.jsonl:3"]
    assert strings(result["body"])[1] is None and strings(result[ERROR])[0::2] == [None, None]
    assert strings(result[ERROR])[1].startswith("its id holds EMAIL, which the output would carry as it is")


def test_ids_are_refused_for_a_recognizers_value_not_for_the_taggers_guess_of_a_secret():
    """ux22 M3: 140 of 12 000 rows keyed r0..r11999 failed ("its id holds CREDENTIAL": the PII tagger's guess at a
    bare token, `r1182`) and the job stopped. The real detector, the tagger on: ids shaped as row numbers and digests
    pass; an e-mail address, a name and a vendor's key still refuse their row."""
    from stealthflow.pipeline.records import refused_ids
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    detector = Detector(build_recognizers(models=True))
    keys = ["r1182", "r1382", "r1440", "r2514", "row-1183", "9f86d081884c7d65", "cust_000917"]
    assert refused_ids(detector, keys) == [None] * len(keys)
    values = ["dana.kerr@mailbox.org", "Anna Weber", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"]
    assert all(why and why.startswith("its id holds") for why in refused_ids(detector, values))


def test_a_failed_row_is_named_by_its_line_in_its_file(tmp_path):
    """ux22 M3 and L2: the manifest gave a refused row as `"id": null, "row": 130955` (a byte offset) and the summary
    as "None: ..."; it is the line's number, counted from any block, in any order."""
    from stealthflow.batch.blocks import row_id, row_number
    from stealthflow.batch.output import failed_row

    path = _jsonl(tmp_path / "big.jsonl", [{"id": f"r{i}", "text": "x" * (i % 7)} for i in range(300)])
    blocks = plan_blocks(input_files(str(path)), 512)
    rows = [(block, row) for block in blocks for row in read_block(block)]
    for line, (block, row) in reversed(list(enumerate(rows, start=1))):
        assert row_number(block, row.row) == line
        # ux24: a row without an id was named by its byte offset ("c.jsonl:0") where the manifest said row 1
        assert row_id({}, "id", block, row.row) == f"big.jsonl:{line}"
    failure = {"id": None, "file": str(path), "row": 1183, "block": "b", "reason": "its id holds EMAIL"}
    assert failed_row(failure) == "row 1183 of big.jsonl: its id holds EMAIL"
    assert failed_row({**failure, "id": "r7"}) == "r7: its id holds EMAIL"


def test_an_output_folder_inside_the_input_folder_is_refused_before_the_first_run(tmp_path):
    """ux22 M5: `batch protect in4/ --output in4/out` ran once, then every rerun was refused (its manifest was read as
    input), so a killed job could never resume. Refused up front, for a folder and for a glob in it."""
    from stealthflow.batch.blocks import outside_input

    _jsonl(tmp_path / "a.jsonl", [{"text": "x"}])
    for source in (str(tmp_path), str(tmp_path) + "/", str(tmp_path / "*.jsonl"), str(tmp_path / "**" / "*.jsonl")):
        with pytest.raises(DataError, match="lies inside the input folder"):
            outside_input(source, tmp_path / "out")
    outside_input(str(tmp_path / "a.jsonl"), tmp_path / "out")  # a file's neighbour is not its input
    outside_input(str(tmp_path), tmp_path.parent / "elsewhere")


def test_each_alone_keeps_the_batch_result_when_nothing_fails():
    calls = []

    def run(items):
        calls.append(list(items))
        return [item * 2 for item in items]

    assert each_alone(run, [1, 2, 3]) == [2, 4, 6] and calls == [[1, 2, 3]]
    assert each_alone(run, []) == []


def test_rewrite_runs_on_the_protected_rows_and_keeps_their_placeholders(tmp_path):
    settings = Settings()
    settings.protect = _config(tmp_path, tagger=False)
    vault = Vault(settings.protect.vault_path, _keys())
    detect = Detect(settings, "s", str(tmp_path / "shards"), vault.id, vault.key_check(), "text")
    texts = ["I am a nurse, mail me at a@x.org", "just a harmless line", None]
    protected = detect(pd.DataFrame({"text": texts}))
    result = Rewrite(settings, "ner-mask", "text")(protected)
    metas = [json.loads(m) if m else None for m in strings(result[META])]
    assert metas[0]["rewrite"]["method"] == "ner-mask" and metas[0]["spans"][0]["type"] == "EMAIL"
    assert metas[0]["spans"][0]["placeholder"] in strings(result["text"])[0]
    assert metas[1]["spans"] == [] and "accepted" in metas[1]["rewrite"]
    assert strings(result["text"])[2] is None and strings(result[ERROR])[2] == "no string 'text' field"


def test_without_ray_a_job_says_how_to_install_it(monkeypatch):
    import sys

    from stealthflow.batch import BatchError
    from stealthflow.batch.job import ray_module

    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    with pytest.raises(BatchError, match=r"pip install 'stealthflow\[ray\]'"):
        ray_module()


def test_a_job_s_own_ray_that_would_listen_on_the_network_is_not_started(tmp_path, monkeypatch):
    """rev31 R4: a Ray imported before the job with its clusters on would put its servers on the host's network address;
    the job refuses before `ray.init`, leaving no folder. A fake Ray (labelled: it records `init`) whose node address
    is a network one; tests/test_batch_ray.py runs the real one."""
    import sys
    import types

    from stealthflow.batch import BatchError
    from stealthflow.batch.job import _ray_for

    inits = []
    fake = types.SimpleNamespace(
        is_initialized=lambda: False,
        init=lambda **kwargs: inits.append(kwargs),
        util=types.SimpleNamespace(get_node_ip_address=lambda: "192.0.2.7"),
    )
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.setitem(sys.modules, "ray.data", types.SimpleNamespace())
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with pytest.raises(BatchError, match="would listen on the network"), _ray_for(None, ray_logs=False):
        pass
    assert inits == [] and list(tmp_path.iterdir()) == []


class _NameInFirstTextOnly:
    """A fake detector: finds the name only after "name:" (as a tagger may in one context only). It implements what
    Protector.protect and close call of a `Detector`: detect_many_with_languages, recognized_with_languages,
    warnings_for and close."""

    def detect_many_with_languages(self, texts, scope=""):
        from stealthflow.placeholders.language import SHORT, Piece, Reading
        from stealthflow.placeholders.types import Level, Span

        return [
            (
                [Span(6, 13, "REAL_NAME", Level.PL2, "fake")] if text.startswith("name: ") else [],
                Reading(SHORT, (Piece(0, len(text), SHORT, 1),)),
            )
            for text in texts
        ]

    def recognized_with_languages(self, texts, models=True):  # the session-name check (`Protector.refuse_values`)
        return self.detect_many_with_languages(texts)

    def warnings_for(self, reading):
        return []

    def close(self):
        pass


@pytest.mark.parametrize("recall", [True, False])
def test_without_recall_a_text_does_not_depend_on_the_texts_before_it(tmp_path, recall):
    from stealthflow.pipeline.protector import Protector

    config = _config(tmp_path)
    protector = Protector(config, Vault(config.vault_path, _keys()), _NameInFirstTextOnly(), recall=recall)
    first = protector.protect("name: Zorblat", "s")
    again = protector.protect("Zorblat again", "s")
    assert first.text == f"name: {first.spans[0].placeholder}"
    assert again.text == (f"{first.spans[0].placeholder} again" if recall else "Zorblat again")
    protector.close()


def _pool_row(block: str, row: int, error: str | None = None) -> dict:
    """A row as the pools give it back to the driver (`read_blocks`, then `Detect`)."""
    meta = {"session": "s", "vault": "v", "spans": [], "language": "en"}
    return {
        "_block": block,
        "_row": row,
        "_rows": 3,
        "_id": f"r{row}",
        "text": None if error else f"text {row}",
        "_keep": json.dumps({"author": "ann"}),
        META: None if error else json.dumps(meta),
        ERROR: error,
    }


def test_a_block_is_written_in_input_order_and_the_job_stops_past_max_failures(tmp_path):
    from stealthflow.batch.blocks import Block
    from stealthflow.batch.job import BatchError, Job, Progress, write_block

    job = Job(session="s", keep=("author",), max_failures=1)
    out = JobOutput(tmp_path, job.describe("v", [], Settings()))
    seen = []
    source = tmp_path / "in.jsonl"
    source.write_text("line\n" * 50)  # 5 bytes a line: the row at byte 20 is line 5
    first, second = (Block(f"00000-00000000000{n}", str(source), "jsonl", n, n + 1, 10) for n in (0, 1))
    rows = [_pool_row(first.id, 30), _pool_row(first.id, 10), _pool_row(first.id, 20, "not valid JSON")]
    write_block(first, rows, out, job, Progress(2, 20), seen.append)
    part = [json.loads(line) for line in (tmp_path / "part-00000-000000000000.jsonl").read_text().splitlines()]
    assert part == [
        {
            "id": f"r{n}",
            "session": "s",
            "vault": "v",
            "text": f"text {n}",
            "spans": [],
            "language": "en",
            "author": "ann",
        }
        for n in (10, 30)
    ]
    assert out.failures() == [
        {"id": "r20", "file": str(source), "row": 5, "at": 20, "block": first.id, "reason": "not valid JSON"}
    ]
    assert (seen[-1].rows, seen[-1].failed, seen[-1].bytes_done) == (2, 1, 10)
    with pytest.raises(BatchError, match="2 rows failed .more than --max-failures 1."):
        write_block(second, [_pool_row(second.id, 40, "no string 'text' field")], out, job, Progress(1, 10), None)
    assert set(out.done) == {first.id, second.id}  # what was done is kept: a rerun resumes after it


def test_pools_fill_the_cluster_and_refuse_what_cannot_start():
    from stealthflow.batch import BatchError, Pools

    assert Pools().sizes(False, 8) == (8, 0)
    assert Pools(threads=2).sizes(False, 8) == (4, 0)
    assert Pools().sizes(True, 8) == (1, 7)  # the rewrite gets what detection leaves
    assert Pools(workers=2, rewrite_workers=3).sizes(True, 8) == (2, 3)
    with pytest.raises(
        BatchError, match="1 detection and 1 rewrite actor.s. of 2 CPU.s. each need 4 CPUs; the Ray cluster has 2"
    ):
        Pools(threads=2).sizes(True, 2)
    with pytest.raises(BatchError, match="need 3 CPUs"):
        Pools(workers=3).sizes(False, 2)


def test_a_block_counts_the_rows_whose_rewrite_left_a_clue(tmp_path):
    """`batch anonymize` writes protect rows (placeholders, then the rewrite): a row whose rewrite left a marked
    phrase is written with `rewrite.protected` false and counted in its block's manifest line (main counted none)."""
    from stealthflow.batch.blocks import Block
    from stealthflow.batch.job import Job, Progress, write_block

    job = Job(session="s", keep=("author",), rewrite="local")
    out = JobOutput(tmp_path, job.describe("v", [], Settings()))
    block = Block("00000-000000000000", "in.jsonl", "jsonl", 0, 1, 10)
    rows = [_pool_row(block.id, n) for n in (10, 20, 30)]
    for row, protected in zip(rows, (False, True, False), strict=True):
        row[META] = json.dumps(json.loads(row[META]) | {"rewrite": {"method": "local", "protected": protected}})
    write_block(block, rows, out, job, Progress(1, 10), None)
    assert (out.rows(), out.not_protected()) == (3, 2)
    out.close()  # a rerun reads the count back from the manifest
    resumed = JobOutput(tmp_path, job.describe("v", [], Settings()))
    assert resumed.not_protected() == 2


def test_an_interrupted_batch_says_the_rows_written_and_that_a_rerun_resumes(tmp_path, monkeypatch):
    """Ctrl-C during `batch protect`: one line on stderr with the rows and whole blocks this run wrote (as the
    progress line last showed them) and that a rerun resumes, exit 130; it printed nothing. FAKE job: reports two
    blocks done, then is interrupted (tests/test_batch_ray.py runs the real one)."""
    from typer.testing import CliRunner

    from stealthflow.batch.job import Progress
    from stealthflow.cli import app

    def interrupted(*args, **options):
        show = args[7]
        show(Progress(blocks=5, bytes=500, blocks_done=2, bytes_done=200, rows=32))
        raise KeyboardInterrupt

    monkeypatch.setattr("stealthflow.batch.run_job", interrupted)
    source = _jsonl(tmp_path / "in.jsonl", [{"id": "a", "text": "hi"}])
    result = CliRunner().invoke(app, ["batch", "protect", str(source), "--output", str(tmp_path / "out")])
    said = " ".join(result.stderr.split())
    assert result.exit_code == 130, result.output
    assert f"interrupted: 32 rows in 2 whole block(s) written to {tmp_path / 'out'} by this run; rerun the same" in said


def test_a_block_counts_its_rows_with_an_empty_text_and_the_summary_says_so(tmp_path, monkeypatch):
    """ux23 finding 5: a row with an empty text was written without notice. Its block's manifest line counts it
    ("empty"), a rerun reads the count back, and `batch` says how many (FAKE job result for the summary; the bar of
    `batch anonymize` says "anonymizing", not "protecting")."""
    from typer.testing import CliRunner

    from stealthflow.batch.blocks import Block
    from stealthflow.batch.job import Job, Progress, Result, write_block
    from stealthflow.cli import app

    job = Job(session="s", keep=("author",))
    out = JobOutput(tmp_path / "o", job.describe("v", [], Settings()))
    block = Block("00000-000000000000", "in.jsonl", "jsonl", 0, 1, 10)
    rows = [_pool_row(block.id, n) for n in (10, 20, 30)]
    rows[1]["text"] = " "
    write_block(block, rows, out, job, Progress(1, 10), None)
    assert (out.rows(), out.empty()) == (3, 1)
    out.close()
    assert JobOutput(tmp_path / "o", job.describe("v", [], Settings())).empty() == 1

    bars = []

    def finished(*args, **options):
        args[7](Progress(blocks=1, bytes=10, blocks_done=1, bytes_done=10, rows=3))
        bars.append(args[7].__self__.doing)
        return Result(tmp_path / "out", 1, 0, 3, [], 0, 0.1, empty=1)

    monkeypatch.setattr("stealthflow.batch.run_job", finished)
    source = _jsonl(tmp_path / "in.jsonl", [{"id": "a", "text": ""}])
    for command, doing in (("protect", "protecting"), ("anonymize", "anonymizing")):
        result = CliRunner().invoke(app, ["batch", command, str(source), "--output", str(tmp_path / "out")])
        assert result.exit_code == 0, result.output
        assert "1 row(s) had an empty text: written as they are" in " ".join(result.stderr.split())
    assert bars == ["protecting", "anonymizing"]


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--text-column", "body", "--keep", "body"], "--keep body: that is the --text-column"),
        (["--text-column", "body", "--id-column", "body"], "--id-column body: that is the --text-column"),
        (["--keep", "text"], "--keep text: the output rows have a field of that name"),
        (["--session", "dana.kerr@mailbox.org"], '--session or "session") holds a personal value'),
        (["--session", "marcus.okafor"], '--session or "session") holds a personal value'),
    ],
    ids=["keep-text", "id-text", "keep-reserved", "session-email", "session-name"],
)
def test_a_job_that_would_write_a_value_in_clear_is_refused_before_anything_is_written(tmp_path, options, said):
    """rev27 L2: `--keep` (or `--id-column`) naming the text column copied every raw text beside its protected copy;
    L3: a personal `--session` ran (each row failed in its actor) and the manifest held it in clear. Both exit 2
    before anything is written (no output folder), and the session's value is not printed. The real CLI and
    `run_job` (no Ray is reached)."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    source = _jsonl(tmp_path / "in.jsonl", [{"id": "a", "body": "Mail dana.kerr@mailbox.org", "text": "hi"}])
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["batch", "protect", str(source), "--output", str(out), "--no-tagger", *options])
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.stderr.split())
    assert not out.exists()
    assert "dana.kerr" not in result.output and "okafor" not in result.output
