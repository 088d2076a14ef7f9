"""F-ray (R4): `stealthflow batch` (without --ray-address) starts a local Ray as this script does (`batch/job.py`:
ray.init with include_dashboard=False, log_to_driver=False). Its GCS server, raylet and object manager listen on every
interface (`*:PORT`), not on 127.0.0.1, for as long as the job runs, and the cluster's auth token is written to
~/.ray/auth_token with mode 0644 (umask 022). Run with a throwaway HOME and RAY_TMPDIR:
`HOME=$(mktemp -d) RAY_TMPDIR=$(mktemp -d) python f_ray_listens.py`. Exit 1 while this Ray listens beyond loopback.
Correct: a local Ray for one job reachable from this machine only, its token readable by its owner only."""

import os
import subprocess
import sys

import ray

ray.init(include_dashboard=False, log_to_driver=False, logging_level="ERROR")
gcs = ray.get_runtime_context().gcs_address
(node,) = ray.nodes()
ports = {
    "gcs_server": gcs.rsplit(":", 1)[1],
    "raylet": str(node["NodeManagerPort"]),
    "object manager": str(node["ObjectManagerPort"]),
}
print("gcs_address", gcs)
listening = [
    line.split() for line in subprocess.run(["ss", "-ltn"], capture_output=True, text=True).stdout.splitlines()
]
ours = {
    name: [cols[3] for cols in listening if len(cols) > 3 and cols[3].endswith(f":{port}")]
    for name, port in ports.items()
}
print("this job's Ray listens on:", ours)
token = os.path.expanduser("~/.ray/auth_token")
print("token file mode", oct(os.stat(token).st_mode & 0o777) if os.path.exists(token) else "none")
ray.shutdown()
wide = [a for addresses in ours.values() for a in addresses if not a.startswith(("127.0.0.1:", "[::1]:"))]
sys.exit(1 if wide else 0)
