#!/usr/bin/env python3
"""Local upstreams for the benchmarks, speaking the real protocols over loopback, in Python's standard
library only (asyncio streams, HTTP/1.1 with keep-alive, Content-Length or chunked request bodies).

  form    the original chat-model endpoint: a form-encoded POST with `input`; the reply is the body
          as text/plain (what the `form` chat model plugin expects at MODEL_URL).
  openai  OpenAI-compatible chat completions: POST <anything>/chat/completions with a JSON body; the
          answer is a `chat.completion` object whose content is a fresh paraphrase-like text, or with
          `"stream": true` the same text as server-sent `chat.completion.chunk`s (one per word, a
          finish chunk, a usage chunk when `stream_options.include_usage` asks, `data: [DONE]`),
          written at once in one response.

Every answer is sent `--delay-ms` after the request was read (0: at once). The server measures its own
handling time (request fully read -> response written) and counts requests and TCP connections:
`GET /_stats` returns them as JSON and `POST /_reset` clears them. Those two paths are never delayed.

Usage: upstream.py {form,openai} [--port N] [--delay-ms MS]   (prints "listening on PORT" when ready)
"""

import argparse
import asyncio
import json
import statistics
import sys
import time
import urllib.parse


class Stats:
    def __init__(self):
        self.reset()

    def reset(self):
        self.requests = 0
        self.connections = 0
        self.handling_us = []
        self.bad = 0

    def report(self):
        xs = sorted(self.handling_us)

        def pct(p):
            return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else None

        return {
            "requests": self.requests,
            "connections": self.connections,
            "bad_requests": self.bad,
            "handling_us_p50": statistics.median(xs) if xs else None,
            "handling_us_p90": pct(90),
            "handling_us_p99": pct(99),
            "handling_us_mean": statistics.fmean(xs) if xs else None,
        }


STATS = Stats()


async def read_request(reader):
    """One request: (method, target, headers, body), or None at EOF."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _version = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    body = b""
    if "chunked" in headers.get("transfer-encoding", "").lower():
        chunks = []
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                # Trailers, if any, end with an empty line.
                while (await reader.readuntil(b"\r\n")) != b"\r\n":
                    pass
                break
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
        body = b"".join(chunks)
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    return method, target, headers, body


def response(status, content_type, body, keep_alive):
    reason = {200: "OK", 400: "Bad Request", 404: "Not Found"}.get(status, "OK")
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        f"content-type: {content_type}\r\n"
        f"content-length: {len(body)}\r\n"
        f"connection: {'keep-alive' if keep_alive else 'close'}\r\n\r\n"
    )
    return head.encode("latin-1") + body


COUNTER = 0


def form_reply(body):
    fields = urllib.parse.parse_qs(body.decode("utf-8", "replace"))
    if "input" not in fields:
        return None
    return 200, "text/plain; charset=utf-8", b"Oh, hello there! It is lovely to see you again."


def openai_reply(body):
    global COUNTER
    try:
        request = json.loads(body)
        text = request["messages"][-1]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    COUNTER += 1
    answer = {
        "id": f"chatcmpl-bench-{COUNTER}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "bench-model"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": f"In other words: {text[-200:]}"},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
    }
    if request.get("stream") is True:
        return 200, "text/event-stream", openai_events(answer, request).encode()
    return 200, "application/json", json.dumps(answer).encode()


def openai_events(answer, request):
    """`answer` as the server-sent events of a streamed completion."""
    base = {k: answer[k] for k in ("id", "created", "model")}
    base["object"] = "chat.completion.chunk"

    def chunk(delta, finish=None):
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    words = answer["choices"][0]["message"]["content"].split(" ")
    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": w + (" " if i < len(words) - 1 else "")}) for i, w in enumerate(words)]
    events.append(chunk({}, "stop"))
    if (request.get("stream_options") or {}).get("include_usage"):
        events.append({**base, "choices": [], "usage": answer["usage"]})
    return "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"


def make_handler(kind, delay):
    reply = form_reply if kind == "form" else openai_reply

    async def handle(reader, writer):
        STATS.connections += 1
        try:
            while True:
                try:
                    method, target, headers, body = await read_request(reader)
                except (asyncio.IncompleteReadError, ConnectionError):
                    break
                started = time.perf_counter()
                keep_alive = headers.get("connection", "").lower() != "close"
                path = target.split("?", 1)[0]
                if path == "/_stats":
                    writer.write(response(200, "application/json", json.dumps(STATS.report()).encode(), keep_alive))
                    await writer.drain()
                    continue
                if path == "/_reset":
                    STATS.reset()
                    writer.write(response(200, "application/json", b"{}", keep_alive))
                    await writer.drain()
                    continue
                answer = reply(body) if method == "POST" else None
                if answer is None:
                    STATS.bad += 1
                    answer = (400, "text/plain", b"bad request")
                if delay > 0:
                    await asyncio.sleep(delay)
                writer.write(response(*answer, keep_alive))
                await writer.drain()
                STATS.requests += 1
                STATS.handling_us.append((time.perf_counter() - started) * 1e6)
                if not keep_alive:
                    break
        finally:
            try:
                writer.close()
            except Exception:
                pass

    return handle


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=["form", "openai"])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay-ms", type=float, default=0.0)
    args = parser.parse_args()
    server = await asyncio.start_server(
        make_handler(args.kind, args.delay_ms / 1000), "127.0.0.1", args.port, backlog=1024
    )
    port = server.sockets[0].getsockname()[1]
    print(f"listening on {port}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
