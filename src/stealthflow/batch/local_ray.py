"""The Ray a job starts for itself when it is given no cluster (no `--ray-address`, no `$RAY_ADDRESS`): reachable from
this machine only, its files from this user only (security review rev31, R4).

- Ray's servers (GCS, raylet, object manager, each worker's) listen on the node's address, and Ray makes that the
  host's network address, even when asked for 127.0.0.1 (`resolve_ip_for_localhost`), unless it was imported with
  its clusters turned off (`RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`, read once, at its import): then the node is
  127.0.0.1 and every server listens there. Ray is imported so (`loopback_import`), and a local Ray that would take
  another address is refused before it starts (`started`).
- Ray makes each folder it creates open to everyone (0777): its temporary folder (sockets, logs, the objects it
  spills to disk, which hold raw rows) is put inside a folder of this user's only (0700), removed with all it holds
  when Ray has stopped. It is made where Ray would put its own (`$RAY_TMPDIR`, else the system's).
- `address="local"`: a Ray another user or job started on this machine (`ray start`) is never joined.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

#: Ray without cluster support: its node (and so every server it starts) on the loopback address
CLUSTERS_OFF = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


class RayNotLocal(RuntimeError):
    """A local Ray would listen beyond this machine (Ray was imported with its clusters on): not started."""


def wanted(ray_address: str | None) -> bool:
    """Whether a job given `ray_address` starts a Ray of its own (no address, none in `$RAY_ADDRESS`)."""
    return not (ray_address or os.environ.get("RAY_ADDRESS"))


@contextlib.contextmanager
def loopback_import() -> Iterator[None]:
    """Around the first `import ray` of the process: Ray reads `CLUSTERS_OFF` then, and only then (the variable is
    restored after). A Ray already imported is as it was (`started` checks it)."""
    if "ray" in sys.modules:
        yield
        return
    saved = {name: os.environ.get(name) for name in CLUSTERS_OFF}
    os.environ.update(CLUSTERS_OFF)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value


def is_loopback(address: str) -> bool:
    """Whether `address` (an IP, IPv4-mapped IPv6 included) reaches this machine only."""
    ip = ipaddress.ip_address(address.strip("[]"))
    return ip.is_loopback or bool(getattr(ip, "ipv4_mapped", None) and ip.ipv4_mapped.is_loopback)


@contextlib.contextmanager
def started(ray: ModuleType, **init: object) -> Iterator[None]:
    """A Ray of this job's own (`ray.init(address="local", **init)`) on the loopback address, in a private temporary
    folder; stopped and the folder removed at the end. `RayNotLocal`, nothing started, when Ray would take another
    address."""
    node = ray.util.get_node_ip_address()
    if not is_loopback(node):
        raise RayNotLocal(
            "a Ray started here would listen on the network, not on this machine only (Ray was imported before "
            "stealthflow could keep it local): run the job in a process of its own, or set "
            "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 before importing ray, or give a cluster (--ray-address)"
        )
    private = Path(tempfile.mkdtemp(prefix="sf-", dir=os.environ.get("RAY_TMPDIR")))  # 0700; short: Ray's sockets
    try:
        ray.init(address="local", _temp_dir=str(private / "ray"), **init)
        try:
            yield
        finally:
            ray.shutdown()
    finally:
        shutil.rmtree(private, ignore_errors=True)
