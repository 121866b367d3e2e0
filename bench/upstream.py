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
  openai-stream
          OpenAI-compatible chat completions that stream: a request with `"stream": true` is answered
          with server-sent events (`text/event-stream`, chunked transfer encoding, keep-alive): one
          `chat.completion.chunk` per `data:` event, the first at once, then one every
          `--interval-ms` (on a fixed schedule from the first, so a late wake-up does not stretch the
          stream), `--chunks` in all, then a chunk with `finish_reason` "stop", a usage chunk when
          `stream_options.include_usage` asks for it, and `data: [DONE]`. Each chunk's content is
          `w<i>@<ns> `, where <ns> is time.monotonic_ns() (CLOCK_MONOTONIC, which every process on
          the machine shares) just before the chunk was written, so that a client reading the text
          behind a gateway can tell how long the chunk took to reach it. The last user message may
          override the shape with `[chunks=N interval=MS]`. Without `"stream": true` the same words
          (stamped when the answer is written) come back as one `chat.completion`, at once.

Every answer is sent `--delay-ms` after the request was read (0: at once). The server measures its own
handling time (request fully read -> response written; for a stream, to its last chunk) and counts
requests and TCP connections (and streams: started, completed, cut off by the client, chunks sent, the
most open at once): `GET /_stats` returns them as JSON and `POST /_reset` clears them. Those two paths
are never delayed.

The fault switch, `POST /_fault` with `{"mode": "hang"}`: from then on every request is read and never
answered (the connection stays open, silent) until `POST /_fault` with `{"mode": "none"}`, which closes
the connections held without a word; `GET /_stats` counts them (`hung`, `hanging`). A stream in flight
when the switch is thrown carries on. The `/_` paths are never held.

Usage: upstream.py {form,openai,openai-stream} [--port N] [--delay-ms MS] [--chunks N] [--interval-ms MS]
(prints "listening on PORT" when ready)
"""

import argparse
import asyncio
import json
import re
import resource
import socket
import statistics
import sys
import time
import urllib.parse


class Stats:
    def __init__(self):
        self.reset()

    def reset(self):
        # Streams still open stay counted as open.
        self.open_streams = getattr(self, "open_streams", 0)
        self.requests = 0
        self.connections = 0
        self.handling_us = []
        self.bad = 0
        self.streams = 0
        self.streams_completed = 0
        self.streams_cut = 0
        self.chunks = 0
        self.max_open_streams = self.open_streams

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
            "streams": self.streams,
            "streams_completed": self.streams_completed,
            "streams_cut": self.streams_cut,
            "chunks": self.chunks,
            "open_streams": self.open_streams,
            "max_open_streams": self.max_open_streams,
            "fault": Fault.mode,
            "hung": Fault.hung,
            "hanging": Fault.hanging,
        }


STATS = Stats()


class Fault:
    """The fault switch: while `mode` is "hang", requests are held unanswered until `cleared` is set."""

    mode = "none"
    cleared = None  # an asyncio.Event, made once the loop runs
    hung = 0
    hanging = 0


async def hold():
    """Holds a request unanswered while the upstream hangs; returns once the fault is cleared."""
    Fault.hung += 1
    Fault.hanging += 1
    try:
        await Fault.cleared.wait()
    finally:
        Fault.hanging -= 1


def quick_ack(writer):
    """Acknowledges what has arrived at once rather than after the kernel's delayed-ACK timer (about
    40 ms). A client that writes a request's head and body in two writes with Nagle's algorithm on
    holds the body until the head is acknowledged, so a delayed ACK would add 40 ms to its every
    request: Linux sends the pending ACK when TCP_QUICKACK is set, and the mode does not stay, so it
    is set again after each request's head is read."""
    sock = writer.get_extra_info("socket")
    if sock is not None and hasattr(socket, "TCP_QUICKACK"):
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
        except OSError:
            pass


async def read_request(reader, writer=None):
    """One request: (method, target, headers, body), or None at EOF."""
    head = await reader.readuntil(b"\r\n\r\n")
    if writer is not None:
        quick_ack(writer)
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


def completion(request, content, completion_tokens):
    """A `chat.completion` answering `request` with `content`."""
    global COUNTER
    COUNTER += 1
    return {
        "id": f"chatcmpl-bench-{COUNTER}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "bench-model"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": completion_tokens, "total_tokens": 10 + completion_tokens},
    }


def openai_reply(body):
    try:
        request = json.loads(body)
        text = request["messages"][-1]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    answer = completion(request, f"In other words: {text[-200:]}", 10)
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


SHAPE = re.compile(r"\[chunks=(\d+) interval=(\d+(?:\.\d+)?)\]")


class StreamShape:
    chunks = 20
    interval = 0.0  # seconds


def stream_request(body):
    """(request, chunks, interval) of a chat-completions request in the `openai-stream` mode, or None
    when it is not one."""
    try:
        request = json.loads(body)
        text = request["messages"][-1]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    chunks, interval = StreamShape.chunks, StreamShape.interval
    m = SHAPE.search(text if isinstance(text, str) else "")
    if m:
        chunks, interval = int(m.group(1)), float(m.group(2)) / 1000
    return request, chunks, interval


def completion_chunk(cid, model, delta, finish=None):
    return {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def http_chunk(payload):
    return b"%x\r\n%s\r\n" % (len(payload), payload)


def sse(obj):
    return b"data: " + json.dumps(obj, separators=(",", ":")).encode() + b"\n\n"


async def stream_reply(writer, request, chunks, interval, keep_alive):
    """Writes one streamed completion; False when the client went away before its end."""
    global COUNTER
    COUNTER += 1
    cid = f"chatcmpl-bench-{COUNTER}"
    model = request.get("model", "bench-model")
    include_usage = bool((request.get("stream_options") or {}).get("include_usage"))
    STATS.streams += 1
    STATS.open_streams += 1
    STATS.max_open_streams = max(STATS.max_open_streams, STATS.open_streams)
    try:
        writer.write(
            (
                "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n"
                f"transfer-encoding: chunked\r\nconnection: {'keep-alive' if keep_alive else 'close'}\r\n\r\n"
            ).encode("latin-1")
        )
        start = time.monotonic()
        for i in range(chunks):
            if i > 0 and interval > 0:
                wait = start + i * interval - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
            delta = {"content": f"w{i}@{time.monotonic_ns()} "}
            if i == 0:
                delta["role"] = "assistant"
            writer.write(http_chunk(sse(completion_chunk(cid, model, delta))))
            await writer.drain()
            STATS.chunks += 1
        tail = sse(completion_chunk(cid, model, {}, "stop"))
        if include_usage:
            usage = completion_chunk(cid, model, {})
            usage["choices"] = []
            usage["usage"] = {"prompt_tokens": 10, "completion_tokens": chunks, "total_tokens": 10 + chunks}
            tail += sse(usage)
        tail += b"data: [DONE]\n\n"
        writer.write(http_chunk(tail) + b"0\r\n\r\n")
        await writer.drain()
        STATS.streams_completed += 1
        return True
    except ConnectionError:
        STATS.streams_cut += 1
        return False
    finally:
        STATS.open_streams -= 1


def openai_stream_whole(request, chunks):
    """The non-streamed answer of the `openai-stream` mode: the same words in one completion."""
    stamp = time.monotonic_ns()
    answer = completion(request, "".join(f"w{i}@{stamp} " for i in range(chunks)), chunks)
    return 200, "application/json", json.dumps(answer).encode()


def make_handler(kind, delay):
    reply = form_reply if kind == "form" else openai_reply

    async def handle(reader, writer):
        STATS.connections += 1
        try:
            while True:
                try:
                    method, target, headers, body = await read_request(reader, writer)
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
                if path == "/_fault":
                    try:
                        mode = json.loads(body or b"{}").get("mode", "none")
                    except (ValueError, AttributeError):
                        mode = None
                    if mode not in ("none", "hang"):
                        writer.write(response(400, "text/plain", b"mode: none or hang", keep_alive))
                    else:
                        if mode == "hang" and Fault.mode != "hang":
                            Fault.cleared.clear()
                        elif mode == "none":
                            Fault.cleared.set()
                        Fault.mode = mode
                        writer.write(response(200, "application/json", json.dumps({"mode": mode}).encode(), keep_alive))
                    await writer.drain()
                    continue
                if Fault.mode == "hang":
                    # Never answered: the connection is closed, silently, once the fault is cleared.
                    await hold()
                    break
                if kind == "openai-stream":
                    parsed = stream_request(body) if method == "POST" else None
                    if parsed is not None and parsed[0].get("stream") is True:
                        if delay > 0:
                            await asyncio.sleep(delay)
                        STATS.requests += 1
                        if not await stream_reply(writer, parsed[0], parsed[1], parsed[2], keep_alive):
                            break
                        STATS.handling_us.append((time.perf_counter() - started) * 1e6)
                        if not keep_alive:
                            break
                        continue
                    answer = openai_stream_whole(parsed[0], parsed[1]) if parsed is not None else None
                else:
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
    parser.add_argument("kind", choices=["form", "openai", "openai-stream"])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay-ms", type=float, default=0.0)
    parser.add_argument("--chunks", type=int, default=20)
    parser.add_argument("--interval-ms", type=float, default=0.0)
    args = parser.parse_args()
    StreamShape.chunks, StreamShape.interval = args.chunks, args.interval_ms / 1000
    Fault.cleared = asyncio.Event()
    Fault.cleared.set()
    # Thousands of streams at once: as many open files as the hard limit allows.
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    server = await asyncio.start_server(
        make_handler(args.kind, args.delay_ms / 1000), "127.0.0.1", args.port, backlog=4096
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
