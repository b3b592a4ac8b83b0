"""catbot: the helper the arena places beside every bot. Standard library only.

A bot is one file defining ``choose(observation, legal_actions)`` that returns one of the
``legal_actions`` (or its index). This module reads the arena's JSON lines, calls your
function and writes the answers; you never touch stdin or stdout. Optional hooks in the bot
file: ``start(info)`` once before the first move and ``end(result)`` after the last. Define
``choose(observation, legal_actions, rng)`` to get a ``random.Random`` seeded for your seat
and match (the one the arena gives a house bot in your seat; it reveals nothing of the deal).

To look ahead, use the engine that runs the match (read-only, importable in the sandbox):
``model = catbot.forward_model(info)`` in ``start`` (or with any observation) gives an
:class:`engine.forward.ForwardModel`: ``sample_state(observation, rng)``, ``legal_actions``,
``apply``, ``is_terminal``, ``scores``, ``action``. A bot that never imports the engine pays
nothing for it. docs/bots.md has the tutorial.

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


def forward_model(info: dict):
    """The engine's forward model of the game ``info`` names: the start message, or any
    observation (both carry game, version and options). See docs/bots.md."""
    # Imported on first use, so that a bot that never looks ahead starts as fast as before.
    from engine.registry import forward_model as model_of

    return model_of(info)


def _wants_rng(choose) -> bool:
    # inspect would cost start-up time; a function's code object says how many it takes.
    function = getattr(choose, "__func__", choose)
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    positional = code.co_argcount - (1 if function is not choose else 0)
    return positional >= 3


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

    extra: tuple = ()
    for line in source:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            if _wants_rng(choose):
                import random  # only for bots that ask for it: it costs start-up time

                extra = (random.Random(message.get("rng_seed")),)
            if start is not None:
                start(message)
            answer({"ready": True})
        elif kind == "act":
            reply: dict = {"id": message.get("id")}
            try:
                chosen = choose(message["observation"], message["legal_actions"], *extra)
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
    # The engine that runs the match (a read-only copy the sandbox shows), then the bot's own
    # directory, both after the standard library: a bot file cannot shadow a standard module.
    engine_lib = os.environ.get("CATLEAGUE_ENGINE_LIB")
    if engine_lib:
        sys.path.append(engine_lib)
    sys.path.append(bot_dir)
    sys.modules.setdefault("catbot", sys.modules[__name__])
    bot = _load_bot(argv[1])
    run(bot.choose, getattr(bot, "start", None), getattr(bot, "end", None))


if __name__ == "__main__":
    main(sys.argv)
