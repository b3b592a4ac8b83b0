"""A bot that speaks the protocol itself, without catbot's run loop (allowed)."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "act":
        print(json.dumps({"id": message["id"], "action": message["legal_actions"][0]}), flush=True)
    else:
        break
