# One python process per moto server that runs the tests' boto3 snippets (MotoServer.boto3): starting python and
# importing boto3 costs about a second per snippet, more than most snippets take. Requests and answers are one JSON
# document a line on stdin and stdout; a snippet's own prints are captured and returned as its output.
import contextlib
import io
import json
import sys
import traceback

import boto3 as _boto3


class _CachedClients:
    """boto3 for the snippets: one client per service, reused (building a client reads its service model)."""

    def __init__(self):
        self._clients = {}

    def client(self, service, **options):
        if options:
            return _boto3.client(service, **options)
        if service not in self._clients:
            self._clients[service] = _boto3.client(service)
        return self._clients[service]


def _emit(value):
    print(json.dumps(value, default=str))


def main():
    clients = _CachedClients()
    channel = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        captured = io.StringIO()
        scope = {"json": json, "sys": sys, "boto3": clients, "args": request["args"], "emit": _emit}
        try:
            with contextlib.redirect_stdout(captured):
                exec(compile(request["code"], "<boto3 snippet>", "exec"), scope)
            answer = {"output": captured.getvalue()}
        except BaseException:
            answer = {"error": traceback.format_exc(), "output": captured.getvalue()}
        channel.write(json.dumps(answer) + "\n")
        channel.flush()


main()
