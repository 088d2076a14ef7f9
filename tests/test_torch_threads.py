"""Models called from worker threads run single-threaded; the main thread keeps its count (torch_threads.py)."""

import threading

import pytest
import torch

from stealthflow.torch_threads import single_threaded_in_workers


@single_threaded_in_workers
def torch_threads() -> int:
    return torch.get_num_threads()


@pytest.fixture
def two_threads_on_main():
    before = torch.get_num_threads()
    torch.set_num_threads(2)  # new threads start with the main thread's count: 2
    yield
    torch.set_num_threads(before)


def on_new_thread(fn):
    out = []
    thread = threading.Thread(target=lambda: out.append(fn()))
    thread.start()
    thread.join()
    return out[0]


def test_a_worker_thread_runs_the_model_on_one_torch_thread(two_threads_on_main):
    assert on_new_thread(torch.get_num_threads) == 2  # what it would have run with
    assert on_new_thread(torch_threads) == 1


def test_the_main_thread_keeps_its_count_after_a_worker_ran(two_threads_on_main):
    on_new_thread(torch_threads)
    assert torch_threads() == 2
