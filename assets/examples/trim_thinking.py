#!/usr/bin/env python3
"""trim-thinking: a steer context engine that sends old turns without their
thinking.

Every request steer sends carries the whole conversation, and a reasoning
model's thinking from turns long finished is rarely worth its tokens. This
engine drops the thinking blocks of the assistant messages of earlier turns
and sends everything else as it is. The turn in progress keeps its thinking:
providers require the signed thinking of the current tool loop to come back
unchanged. Compaction is delegated to steer's built-in one.

Use it (any path; python3 is the only requirement) in steer's config.json:

    "agent": {"contextEngine": "trim-thinking"},
    "contextEngines": {
        "trim-thinking": {"command": ["python3", "/path/to/trim_thinking.py"],
                          "timeoutSeconds": 10}
    }

The protocol is described in assets/context-engines.md: one JSON request per
line on stdin, one JSON answer per line on stdout, logs on stderr.
"""

import json
import sys

VERSION = "1.0"


def log(*words):
    """Logs go to stderr, which steer writes to its log file; stdout is for
    answers only."""
    print("trim-thinking:", *words, file=sys.stderr, flush=True)


def current_turn_start(messages):
    """The index of the user message that opened the turn in progress (tool
    results have their own role, "toolResult")."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].get("role") == "user":
            return i
    return 0


def without_thinking(message):
    """The message without its thinking blocks; an assistant message whose
    only content is thinking is kept whole, as an empty one is refused."""
    content = message.get("content")
    if message.get("role") != "assistant" or not isinstance(content, list):
        return message
    kept = [block for block in content if block.get("type") != "thinking"]
    if not kept or len(kept) == len(content):
        return message
    return dict(message, content=kept)


def assemble(params):
    messages = params["messages"]
    start = current_turn_start(messages)
    older = [without_thinking(m) for m in messages[:start]]
    trimmed = sum(1 for a, b in zip(older, messages) if a is not b)
    if trimmed:
        log("dropped the thinking of %d earlier assistant message(s)" % trimmed)
    return {"messages": older + messages[start:]}


HANDLERS = {
    "info": lambda params: {"version": VERSION, "ownsCompaction": False},
    "bootstrap": lambda params: {},
    "ingest": lambda params: {},
    "assemble": assemble,
    "compact": lambda params: {"delegate": True},
    "afterTurn": lambda params: {},
}


def answer(request):
    handler = HANDLERS.get(request.get("method"))
    if handler is None:
        return {"id": request["id"], "error": {"message": "unknown method %r" % request.get("method")}}
    try:
        return {"id": request["id"], "result": handler(request.get("params") or {})}
    except Exception as e:  # an error answer, not a crash: steer falls back and says why
        return {"id": request["id"], "error": {"message": "%s: %s" % (type(e).__name__, e)}}


def main():
    # Bytes in, so that the locale's encoding never matters; JSON is UTF-8.
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
        sys.stdout.flush()
    # stdin closed: steer is done with this engine.


if __name__ == "__main__":
    main()
