#!/usr/bin/env python3
"""The conformance protocol (docs/conformance.md) for the small engine of game.py.

Newline-delimited JSON-RPC 2.0 on stdin and stdout, the Python standard library only:

    npx mtg-turn-engine conformance run --engine "python3 examples/conformance-python/engine.py"

The runner asks initialize, createGame, send, view, legalActions, persist, restore and
shutdown; while a send (or createGame) waits at a checkpoint, this engine asks the runner
`checkpoint` and reads on until the answer comes. Anything written to stdout is a message:
diagnostics go to stderr.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ beside the example (it ships in the package)

from game import BadOptions, Game, Refused  # noqa: E402

NAME = "conformance-python"
VERSION = "1.0.0"
# The feature tags this engine supports (docs/conformance.md, "Features"): the core, and these.
FEATURES = [
    "checkpoint", "leaving", "stackEvents", "combatChanges", "endTurn", "pregame", "orderTriggers", "persist",
    "multiplayer", "eras:m10", "eras:classic", "effects", "stops", "extraPhases", "skips", "extraTurns",
]


class Stdio:
    """One JSON-RPC message per line; the engine's own requests get ids "py-1", "py-2", ..."""

    def __init__(self):
        self.next_id = 0

    def write(self, message):
        message["jsonrpc"] = "2.0"
        sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
        sys.stdout.flush()

    def read(self):
        """The next message, or None at the end of the input. A line that is not JSON gets a parse error."""
        while True:
            line = sys.stdin.readline()
            if line == "":
                return None
            if not line.strip():
                continue
            try:
                return json.loads(line)
            except ValueError:
                self.write({"id": None, "error": {"code": -32700, "message": "parse error: not JSON"}})

    def checkpoint(self, view, pending):
        """Asks the runner the checkpoint hook's result and waits for it (the hook is synchronous)."""
        self.next_id += 1
        ask = f"py-{self.next_id}"
        self.write({"id": ask, "method": "checkpoint", "params": {"view": view, "pending": pending}})
        while True:
            message = self.read()
            if message is None:
                raise RuntimeError("the runner closed stdin before answering checkpoint")
            if message.get("id") == ask and "method" not in message:
                if "error" in message:
                    raise RuntimeError(f"the runner answered checkpoint with an error: {message['error'].get('message')}")
                return message.get("result")
            if "method" in message and "id" in message:
                self.write({"id": message["id"], "error": {"code": -32002, "message": "busy: waiting for the answer to checkpoint"}})


def main():
    io = Stdio()
    game = None
    hook = None

    def refused(code, message):
        return {"code": -32000, "message": message, "data": {"code": code}}

    while True:
        message = io.read()
        if message is None:
            return
        if not isinstance(message, dict) or "method" not in message:
            if isinstance(message, dict) and ("result" in message or "error" in message):
                continue  # a stray answer to a checkpoint given up on
            io.write({"id": None, "error": {"code": -32600, "message": "not a JSON-RPC request"}})
            continue
        method = message["method"]
        params = message.get("params") or {}
        answer = {"id": message.get("id")}
        try:
            if method == "initialize":
                answer["result"] = {"name": NAME, "version": VERSION, "features": FEATURES, "protocolVersion": 1}
            elif method == "createGame":
                hook = io.checkpoint if params.get("checkpoint") is True else None
                game = None
                game = Game(params.get("options"), hook)
                answer["result"] = {"events": game.created}
            elif method == "shutdown":
                answer["result"] = {}
                io.write(answer)
                return
            elif game is None:
                answer["error"] = {"code": -32001, "message": "no game: call createGame first"}
            elif method == "send":
                answer["result"] = game.send(params.get("event"))
                if answer["result"]["ok"] is False:
                    answer["result"]["events"] = []
            elif method == "view":
                answer["result"] = game.view()
            elif method == "legalActions":
                answer["result"] = game.legal_actions(params.get("player"))
            elif method == "persist":
                answer["result"] = game.persist()
            elif method == "restore":
                game = Game.restore(params.get("persisted"), hook)
                answer["result"] = {}
            else:
                answer["error"] = {"code": -32601, "message": f"no method {method!r}"}
        except BadOptions as err:
            answer["error"] = refused(err.code, str(err))
        except Refused as err:  # a checkpoint that failed while createGame played turn 1's first steps
            answer["error"] = refused(err.code, err.message)
        if "id" in message:
            io.write(answer)


if __name__ == "__main__":
    main()
