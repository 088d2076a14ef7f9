"""F-ray (R4): `stealthflow batch` (without --ray-address) starts a Ray of its own. On main (8f15e33f) its GCS server,
raylet, object manager and every worker listened on every interface (`*:PORT`) for as long as the job ran, its session
folder was open to everyone (0777) and its auth token was written 0644.

Starts Ray as `batch` does (`batch.job._ray_for` with no address; on a tree without it, `ray.init` as main's
`batch/job.py` called it), runs an actor and a small Ray Data job so workers start, and lists every listening TCP
socket of this process and its descendants. Run with a throwaway HOME and RAY_TMPDIR:
`HOME=$(mktemp -d) RAY_TMPDIR=$(mktemp -d) PYTHONPATH=src python f_ray_listens.py`.
Correct (exit 0): every socket on a loopback address; a folder on the way to Ray's session folder closed to others;
nothing of Ray left in RAY_TMPDIR after the job; the token readable by its owner only. Exit 1 otherwise."""

import contextlib
import ipaddress
import os
import stat
import sys
from pathlib import Path

import psutil

try:
    from stealthflow.batch.job import _ray_for

    def ray_for_a_job():
        return _ray_for(None, ray_logs=False)

except ImportError:  # main before the fix: what its batch/job.py did

    @contextlib.contextmanager
    def ray_for_a_job():
        import ray

        ray.init(include_dashboard=False, log_to_driver=False, logging_level="ERROR")
        try:
            yield ray
        finally:
            ray.shutdown()


def loopback(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return ip.is_loopback or bool(getattr(ip, "ipv4_mapped", None) and ip.ipv4_mapped.is_loopback)


def closed_to_others(path: Path, root: Path) -> bool:
    """Whether a folder below `root` (RAY_TMPDIR, the user's) down to `path` gives others no access."""
    below = [folder for folder in [path, *path.parents] if folder.is_relative_to(root) and folder != root]
    return any(not folder.stat().st_mode & stat.S_IRWXO for folder in below)


ray_tmp = Path(os.environ.get("RAY_TMPDIR", "/tmp/ray"))
with ray_for_a_job() as ray:

    @ray.remote
    class Echo:
        def say(self, x):
            return x

    assert ray.get(Echo.remote().say.remote(1)) == 1
    assert ray.data.range(8).map_batches(lambda batch: batch).count() == 8
    me = psutil.Process()
    sockets = sorted(
        {
            (process.name(), connection.laddr.ip, connection.laddr.port)
            for process in [me, *me.children(recursive=True)]
            for connection in process.net_connections(kind="tcp")
            if connection.status == psutil.CONN_LISTEN
        }
    )
    sessions = [path for path in ray_tmp.rglob("session_*") if path.is_dir() and not path.is_symlink()]
    print("listening:", [f"{name} {ip}:{port}" for name, ip, port in sockets])
    wide = [f"{name} {ip}:{port}" for name, ip, port in sockets if not loopback(ip)]
    open_sessions = [str(path) for path in sessions if not closed_to_others(path, ray_tmp)]
    print("session folders:", [f"{path} {oct(path.stat().st_mode & 0o777)}" for path in sessions])
left = [str(path) for path in ray_tmp.iterdir()]
token = Path("~/.ray/auth_token").expanduser()
token_mode = token.stat().st_mode & 0o777 if token.exists() else None
print("beyond loopback:", wide)
print("session folders others can reach:", open_sessions)
print("left in RAY_TMPDIR after the job:", left)
print("token file mode", oct(token_mode) if token_mode is not None else "none")
failed = not sockets or not sessions or wide or open_sessions or left or (token_mode or 0) & 0o077
print("exit", int(bool(failed)))
sys.exit(1 if failed else 0)
