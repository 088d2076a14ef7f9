"""P2: memory scopes through the real service (`serve`'s /memory routes, a real HTTP client, real SQLite files). Two
users hold values; a hostile reply (or a forged request id) tries to hydrate one user's values under the other's pack,
under a pack that sent none (""), under another user's request id, under an invented id, and under a user name that
differs only in case, width or a trailing space. Correct: every such value stays a placeholder. Exit 1 on a leak."""

import sys
import tempfile
from pathlib import Path

import httpx
from harness import make

from stealthflow.memory import MemoryStore
from stealthflow.service import create_app
from stealthflow.testing.loopback import serve
from stealthflow.testing.vectors import hash_vectors  # FAKE embedder (hashed bag of words)

TOKEN = "rev31-service-token-0123456789"
ANN, BOB = "quillon.varrick@examplemail.org", "orsolya.brandt@examplemail.org"
store = MemoryStore(Path(tempfile.mkdtemp(prefix="rev31-m-")) / "m.sqlite", make(), embed=hash_vectors)
leaks = []
with serve(create_app(store.protector, TOKEN, memory=store)) as port:
    url, h = f"http://127.0.0.1:{port}/memory", {"Authorization": f"Bearer {TOKEN}"}

    def post(path, **body):
        return httpx.post(f"{url}/{path}", headers=h, json=body)

    post("append", user="ann", text=f"My e-mail is {ANN}.")
    post("append", user="ann", text="I like tea.")
    post("append", user="bob", text=f"My e-mail is {BOB}.")
    ann_pack = post("pack", user="ann", query="tea", min_score=-1).json()
    bob_pack = post("pack", user="bob", query="e-mail", min_score=-1).json()
    tea_only = post("pack", user="ann", query="what do I drink? tea", budget_tokens=8).json()
    hostile = "Sure: <EMAIL_1> [[EMAIL:00000000]] EMAIL_1 <EMAIL_２>"
    tries = {
        "ann, her own pack": ("ann", ann_pack["request"]),
        "ann, a pack of the tea memory only": ("ann", tea_only["request"]),
        "ann, a pack that sent none": ("ann", ""),
        "ann, bob's request id": ("ann", bob_pack["request"]),
        "bob, ann's request id": ("bob", ann_pack["request"]),
        "invented id": ("ann", "AAAAAAAAAAAAAAAAAAAAAA"),
        "Ann": ("Ann", ann_pack["request"]),
        "fullwidth ann": ("\uff41\uff4e\uff4e", ann_pack["request"]),
        "ann with a space": ("ann ", ann_pack["request"]),
    }
    for name, (user, request) in tries.items():
        answer = post("hydrate", user=user, text=hostile, request=request)
        text = answer.json().get("text", "") if answer.status_code == 200 else ""
        expected = ANN in text and name == "ann, her own pack"
        got = [value for value in (ANN, BOB) if value in text]
        print(f"{name:38s} {answer.status_code} restored {got or 'nothing'}")
        if got and not expected:
            leaks.append(name)
store.close()
print("leaks:", leaks or "none")
sys.exit(1 if leaks else 0)
