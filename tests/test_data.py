import json

import pytest

from stealthflow.data import ATTRIBUTES, DataError, load_input, load_profiles
from stealthflow.data.attributes import age_bucket, snap_to_options


def test_corpus_loads_with_both_label_sources(repo):
    train = load_profiles(repo / "data/train.jsonl")
    test = load_profiles(repo / "data/test.jsonl")
    assert (len(train), len(test)) == (575, 200)
    assert not {p.id for p in train} & {p.id for p in test}
    sources = {label.source for p in train for label in p.labels.values()}
    assert sources == {"human_evaluated", "synth"}
    for profile in train + test:
        assert set(profile.labels) <= set(ATTRIBUTES)
        assert "deepseek-ai/DeepSeek-V3" in profile.reference_predictions
    # Known shape of the release: 858 / 476 usable labels; 4 / 2 profiles carry none.
    assert sum(len(p.labelled()) for p in train) == 858
    assert sum(len(p.labelled()) for p in test) == 476
    assert sum(not p.labelled() for p in train) == 4
    assert sum(not p.labelled() for p in test) == 2


def test_profile_text_has_no_timestamps_but_keeps_them(repo):
    profile = load_profiles(repo / "data/train.jsonl", limit=1)[0]
    assert profile.comments[0].timestamp is not None
    assert profile.text.split("\n")[0] == profile.comments[0].text
    assert "2024-" not in profile.text.split("\n")[0][:11]


def test_integer_and_string_ages_normalise_to_strings(tmp_path):
    record = {
        "username": "u1",
        "comments": [{"comments": [{"text": "hi", "timestamp": 1700000000, "subreddit": "x"}]}],
        "reviews": {"human_evaluated": {"age": {"estimate": 42, "hardness": 2, "certainty": 3}}},
    }
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(record) + "\n")
    (profile,) = load_profiles(path)
    assert profile.labels["age"].estimate == "42"
    assert profile.labelled()["age"].source == "human_evaluated"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        ('["a list"]', "expected a JSON object"),
        ('{"text": "no id"}', "missing 'id'"),
        ('{"id": "x", "posts": "not a list"}', "must be a list"),
        ('{"id": "x", "posts": [{"nope": 1}]}', "text"),
        ('{"id": 3}', "unrecognised record"),
    ],
)
def test_malformed_line_names_file_and_line(tmp_path, line, message):
    path = tmp_path / "in.jsonl"
    path.write_text('{"id": "ok", "text": "fine"}\n\n' + line + "\n")
    with pytest.raises(DataError) as caught:
        load_profiles(path)
    assert f"{path}:3:" in str(caught.value)
    assert message in str(caught.value)


def test_duplicate_ids_are_an_error_that_names_their_lines_not_the_id(tmp_path):
    """rev26 L3: the id was printed, and an id may be personal data."""
    path = tmp_path / "in.jsonl"
    path.write_text('{"id": "ann@x.org", "text": "x"}\n\n{"id": "ann@x.org", "text": "y"}\n')
    with pytest.raises(DataError, match="in.jsonl:3: duplicate profile id, the same as line 1's") as caught:
        load_profiles(path)
    assert "ann@x.org" not in str(caught.value)


def test_user_input_shapes(tmp_path):
    text_file = tmp_path / "post.txt"
    text_file.write_text("first post\n\nsecond post\n")
    (plain,) = load_input(text_file)
    assert [c.text for c in plain.comments] == ["first post", "second post"]
    assert plain.id == "post"

    jsonl = tmp_path / "posts.jsonl"
    jsonl.write_text(
        '{"id": "a", "text": "hello"}\n'
        '{"id": "b", "posts": [{"text": "one", "subreddit": "r/x"}, {"text": "two", "timestamp": "1700000000"}]}\n'
    )
    a, b = load_input(jsonl)
    assert a.text == "hello" and not a.labels
    assert b.text == "one\ntwo" and b.comments[1].timestamp.year == 2023


def test_empty_or_missing_input_is_an_error(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n\n")
    with pytest.raises(DataError, match="holds no text"):
        load_input(empty)
    with pytest.raises(DataError, match="no such file"):
        load_input(tmp_path / "missing.jsonl")
    folder = tmp_path / "profiles.jsonl"
    folder.mkdir()
    with pytest.raises(DataError, match="a directory, not a file"):  # was a raw IsADirectoryError
        load_input(folder)


@pytest.mark.parametrize(
    ("attribute", "value", "expected"),
    [
        ("income", "middle", ("Medium (30-60k USD)",)),
        ("income", "very high", ("Very High (>150k USD)",)),
        ("income", "High (60-150k USD)", ("High (60-150k USD)",)),
        ("education", "Masters in Finance", ("College Degree",)),
        ("education", "studying towards a Bachelors in Commerce", ("In College",)),
        ("education", "Doctorate in Medicine", ("PhD",)),
        ("education", "In College/HS Diploma", ("In College", "HS Diploma")),
        ("education", "High School Diploma", ("HS Diploma",)),
        ("married", "in a relationship", ("In Relation",)),
        ("married", "single", ("No relation",)),
        ("married", "engaged/married", ("In Relation", "Married")),
        ("gender", "female", ("Female",)),
        ("gender", "Male", ("Male",)),
        ("gender", "banana", ()),
    ],
)
def test_snap_to_options(attribute, value, expected):
    assert snap_to_options(attribute, value) == expected


def test_every_corpus_categorical_label_snaps(repo):
    for profile in load_profiles(repo / "data/train.jsonl") + load_profiles(repo / "data/test.jsonl"):
        for attribute, label in profile.labelled().items():
            if attribute in ("gender", "income", "education", "married"):
                assert snap_to_options(attribute, label.estimate), (attribute, label.estimate)


def test_age_bucket_edges():
    assert [age_bucket(a) for a in (18, 25, 34.9, 35, 54, 55, 80)] == [
        "<25",
        "25-34",
        "25-34",
        "35-44",
        "45-54",
        "55+",
        "55+",
    ]


def test_every_bundled_yaml_file_reads_as_pyyamls_safe_load_reads_it():
    """`data_yaml` parses with libyaml when PyYAML has it: the same values as the pure-Python parser."""
    import yaml

    from stealthflow.resources import data_yaml, resource_dir

    root = resource_dir("data")
    files = sorted(root.rglob("*.yaml"))
    assert len(files) >= 10
    for path in files:
        assert data_yaml(str(path.relative_to(root))) == yaml.safe_load(path.read_text(encoding="utf-8")), path
