#!/usr/bin/env python3
"""A small scripted LSP client for cuda-clangd's tests and bench/.

It starts a language server over stdio and plays one editing session:

    initialize, initialized
    didOpen FILE                      -> waits for publishDiagnostics
    codeAction on each diagnostic     (with --fix TITLE: the quick fixes)
    apply the first action whose title contains TITLE, didChange
                                      -> waits for publishDiagnostics again
    shutdown, exit

and prints what it received as JSON, one message per line with sorted keys,
so that FileCheck can match it. Paths under the file's directory are printed
relative to it, so the output does not depend on where the test runs.

    lsp_client.py [--fix TITLE] [--write-fixed OUT] FILE -- SERVER [ARGS...]

Standard library only: CI installs no Python packages.
"""

import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import time
import urllib.parse

TIMEOUT_SECONDS = 120


class Server:
    """One language server process and its JSON-RPC stream."""

    def __init__(self, command, cwd, env=None):
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if not os.environ.get("LSP_CLIENT_LOG")
            else None, cwd=cwd, env=env)
        self.messages = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message):
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body))
        self.process.stdin.write(body)
        self.process.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method,
                   "params": params})
        reply = self.wait(lambda m: m.get("id") == request_id
                          and "method" not in m)
        if "error" in reply:
            sys.exit("lsp_client: %s failed: %s" % (method, reply["error"]))
        return reply.get("result")

    def wait(self, wanted):
        """The next message for which wanted() holds; answers the server's
        own requests (configuration, progress) on the way."""
        deadline = time.monotonic() + TIMEOUT_SECONDS
        while True:
            try:
                message = self.messages.get(
                    timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                sys.exit("lsp_client: no answer from the server in %d s"
                         % TIMEOUT_SECONDS)
            if message is None:
                sys.exit("lsp_client: the server exited (status %s)"
                         % self.process.wait())
            if "method" in message and "id" in message:
                self.send({"jsonrpc": "2.0", "id": message["id"],
                           "result": None})
                continue
            if wanted(message):
                return message

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


CAPABILITIES = {
    "textDocument": {
        "publishDiagnostics": {"relatedInformation": True,
                               "versionSupport": True},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {
            "valueSet": ["quickfix", "refactor", "source"]}}},
        "synchronization": {"didSave": True},
    },
    "workspace": {"applyEdit": True, "workspaceEdit": {
        "documentChanges": True}},
}


def uri_of(path):
    return "file://" + urllib.parse.quote(os.path.abspath(path))


def offset_of(text, position):
    """Offset of an LSP position (UTF-16 units; our files are ASCII)."""
    lines = text.split("\n")
    return (sum(len(line) + 1 for line in lines[:position["line"]])
            + position["character"])


def apply_edits(text, edits):
    for edit in sorted(edits, key=lambda e: offset_of(text, e["range"]["start"]),
                       reverse=True):
        start = offset_of(text, edit["range"]["start"])
        end = offset_of(text, edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


def edits_for(action, uri):
    """The text edits a code action makes to the document at uri."""
    workspace_edit = action.get("edit", {})
    edits = list(workspace_edit.get("changes", {}).get(uri, []))
    for change in workspace_edit.get("documentChanges", []):
        if change.get("textDocument", {}).get("uri") == uri:
            edits.extend(change["edits"])
    return edits


class Printer:
    """Prints messages with the file's directory made relative."""

    def __init__(self, directory):
        self.prefixes = [uri_of(directory) + "/", directory + "/"]

    def __call__(self, kind, value):
        text = json.dumps(value, sort_keys=True)
        for prefix in self.prefixes:
            text = text.replace(prefix, "")
        print("%s: %s" % (kind, text), flush=True)


def diagnostics_of(server, uri, version=None):
    message = server.wait(
        lambda m: m.get("method") == "textDocument/publishDiagnostics"
        and m["params"]["uri"] == uri
        and (version is None or m["params"].get("version") == version))
    return message["params"]["diagnostics"]


def open_document(server, path, text):
    """Sends initialize and didOpen; returns the seconds from didOpen to the
    first publishDiagnostics, and the diagnostics."""
    directory = os.path.dirname(os.path.abspath(path))
    server.request("initialize", {
        "processId": os.getpid(), "rootUri": uri_of(directory),
        "capabilities": CAPABILITIES})
    server.notify("initialized", {})
    uri = uri_of(path)
    language = "cuda" if path.endswith((".cu", ".cuh")) else "cpp"
    start = time.monotonic()
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": language, "version": 1, "text": text}})
    diagnostics = diagnostics_of(server, uri)
    return time.monotonic() - start, diagnostics


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fix", metavar="TITLE",
                        help="apply the first code action whose title "
                        "contains TITLE, then wait for new diagnostics")
    parser.add_argument("--write-fixed", metavar="OUT",
                        help="write the document after the fix to OUT")
    parser.add_argument("file")
    parser.add_argument("server", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.server[1:] if args.server[:1] == ["--"] else args.server
    if not command:
        parser.error("no server command after --")

    path = os.path.abspath(args.file)
    directory = os.path.dirname(path)
    show = Printer(directory)
    with open(path) as source:
        text = source.read()
    server = Server(command, cwd=directory)
    _, diagnostics = open_document(server, path, text)
    uri = uri_of(path)
    for diagnostic in diagnostics:
        show("diagnostic", diagnostic)
    show("diagnostic-count", len(diagnostics))

    if args.fix:
        chosen = None
        for diagnostic in diagnostics:
            actions = server.request("textDocument/codeAction", {
                "textDocument": {"uri": uri}, "range": diagnostic["range"],
                "context": {"diagnostics": [diagnostic]}}) or []
            for action in actions:
                show("action", {"title": action["title"],
                                "kind": action.get("kind"),
                                "diagnostic": diagnostic["message"],
                                "edits": edits_for(action, uri)})
                if chosen is None and args.fix in action["title"]:
                    chosen = action
        if chosen is None:
            sys.exit("lsp_client: no code action titled '%s'" % args.fix)
        text = apply_edits(text, edits_for(chosen, uri))
        if args.write_fixed:
            with open(args.write_fixed, "w") as out:
                out.write(text)
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": text}]})
        after = diagnostics_of(server, uri, version=2)
        for diagnostic in after:
            show("after-fix", diagnostic)
        show("after-fix-count", len(after))

    status = server.close()
    show("exit", status)


if __name__ == "__main__":
    main()
