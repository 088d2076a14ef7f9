"""lasting.lasting_objects: the collector waits while lasting objects are built, they are frozen after,
and collection resumes as it was (also when the block fails)."""

from __future__ import annotations

import gc

import pytest

from stealthflow.lasting import lasting_objects


@pytest.fixture(autouse=True)
def _unfrozen():
    yield
    gc.unfreeze()
    gc.enable()


def test_the_collector_waits_inside_and_what_was_built_is_frozen_after():
    gc.unfreeze()
    with lasting_objects():
        assert not gc.isenabled()
        built = [[n] for n in range(1000)]  # containers the collector tracks
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(built)


def test_collection_resumes_as_it_was_also_after_a_failure():
    gc.disable()
    with lasting_objects():
        pass
    assert not gc.isenabled()  # it was off: it stays off
    gc.enable()
    with pytest.raises(RuntimeError), lasting_objects():
        raise RuntimeError("a failed load")
    assert gc.isenabled()
