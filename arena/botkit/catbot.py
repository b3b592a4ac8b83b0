"""catbot: the helper the arena places beside every bot. Standard library only.

A bot is one file defining ``choose(observation, legal_actions)`` that returns one of the
``legal_actions`` (or its index). This module reads the arena's JSON lines, calls your
function and writes the answers; you never touch stdin or stdout. Optional hooks in the bot
file: ``start(info)`` once before the first move and ``end(result)`` after the last.

``print()`` is safe: your stdout is redirected to stderr, which the arena keeps (truncated)
for you to read after the match. Protocol: docs/bots.md.
"""

from __future__ import annotations

import json
import os
import sys

# importlib.util and traceback are left out on purpose: each bot process starts afresh for
# every match, and those imports were a third of its start-up CPU.

PROTOCOL = "catleague.bot/1"


def log(*args: object) -> None:
    """Write a debug line to stderr (visible to the bot's owner after the match)."""
    print(*args, file=sys.stderr, flush=True)


def _protocol_channel():
    # Keep the real stdout for protocol lines and point fd 1 at stderr, so a stray print()
    # in a bot (or a library it uses) cannot corrupt an answer.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def run(choose, start=None, end=None, *, stdin=None, stdout=None) -> None:
    """Serve the arena's messages until the match ends, calling ``choose`` for each move."""
    source = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else _protocol_channel()

    def answer(message: dict) -> None:
        try:
            line = json.dumps(message, separators=(",", ":"))
        except (TypeError, ValueError) as exc:  # choose() returned something that is not JSON
            line = json.dumps({"id": message.get("id"), "error": f"answer is not JSON: {exc}"})
        out.write(line + "\n")
        out.flush()

    for line in source:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            if start is not None:
                start(message)
            answer({"ready": True})
        elif kind == "act":
            reply: dict = {"id": message.get("id")}
            try:
                chosen = choose(message["observation"], message["legal_actions"])
            except Exception as exc:  # the bot's bug costs a move, not the process
                import traceback

                traceback.print_exc()
                reply["error"] = f"{type(exc).__name__}: {exc}"
            else:
                if isinstance(chosen, int) and not isinstance(chosen, bool):
                    reply["index"] = chosen
                else:
                    reply["action"] = chosen
            answer(reply)
        elif kind == "end":
            if end is not None:
                end(message.get("result"))
            return


def _load_bot(path: str):
    try:
        with open(path, "rb") as handle:
            code = compile(handle.read(), path, "exec")
    except OSError as exc:
        raise SystemExit(f"catbot: cannot load {path}: {exc}") from None
    module = type(sys)("bot")  # a plain module object, as importing the file would make
    module.__file__ = path
    sys.modules["bot"] = module
    exec(code, module.__dict__)
    if not callable(getattr(module, "choose", None)):
        raise SystemExit(f"catbot: {path} defines no choose(observation, legal_actions) function")
    return module


def main(argv: list[str]) -> None:
    if len(argv) != 2:
        raise SystemExit("usage: python3 catbot.py BOT_FILE")
    bot_dir = os.path.dirname(os.path.abspath(argv[1]))
    sys.path.append(bot_dir)  # after the stdlib: a bot file cannot shadow a standard module
    sys.modules.setdefault("catbot", sys.modules[__name__])
    bot = _load_bot(argv[1])
    run(bot.choose, getattr(bot, "start", None), getattr(bot, "end", None))


if __name__ == "__main__":
    main(sys.argv)
