"""Helpers for a Parlance chat model that streams its reply (`chat-stream`, parlance:plugin@0.1.4).

Streaming is sans-IO: `start` returns the upstream request and its framing, the host sends it and
splits the answer into events, `decode` turns a batch of events into parts of the reply (each call in
a fresh instance or not, so it keeps no state), and `refusal` says what an answer outside 2xx means.

The first half holds what every streaming plugin needs (part and error values, the request, the
status mapping); the second the protocol of OpenAI-compatible chat completions (`/chat/completions`
with `"stream": true`, server-sent events ending with `data: [DONE]`). For another protocol keep the
first half and write your own decoder."""

import json
import math
from typing import Any, List, Optional, Tuple

from componentize_py_types import Err
from wit_world.exports.chat_model import ChatRequest
from wit_world.exports.chat_stream import (
    Framing,
    Generation,
    StreamPart,
    StreamPart_Delta,
    StreamPart_Done,
    StreamPart_Model,
    StreamPart_Usage,
    StreamStart,
    Usage,
)
from wit_world.imports.http_client import Request, Response
from wit_world.imports.parlance_plugin_types import (
    PluginError,
    PluginError_BadResponse,
    PluginError_InvalidInput,
    PluginError_RateLimited,
    PluginError_Timeout,
    PluginError_Unauthorized,
    PluginError_Unavailable,
    RateLimit,
)
from wit_world.imports.wasi_http_types import Method_Post

# Parts of a streamed reply, as `decode` returns them.


def delta(text: str) -> StreamPart:
    return StreamPart_Delta(text)


def model(name: str) -> StreamPart:
    return StreamPart_Model(name)


def usage(input_tokens: Optional[int], output_tokens: Optional[int]) -> StreamPart:
    return StreamPart_Usage(Usage(input_tokens=input_tokens, output_tokens=output_tokens))


def done(reason: Optional[str] = None) -> StreamPart:
    """The reply is complete, with the upstream's finish reason (`stop`, `length`) when it gave one.
    A stream that ends without `done` is treated by the host as cut off; parts after it are dropped."""
    return StreamPart_Done(reason)


def snippet(text: str) -> str:
    """At most 200 characters on one line, for error messages."""
    line = " ".join(text.split())
    if not line:
        return "(empty body)"
    return line[:200] + "…" if len(line) > 200 else line


def retry_after_secs(value: Optional[str]) -> Optional[int]:
    """`Retry-After` in seconds; the HTTP-date form is ignored (the host's backoff applies)."""
    try:
        secs = float((value or "").strip())
    except ValueError:
        return None
    if not math.isfinite(secs) or secs < 0:
        return None
    return min(math.ceil(secs), 4294967295)


def error_detail(text: str) -> str:
    """The useful part of an error body: `error.message`, `error` or `message`, or the text itself."""
    try:
        value = json.loads(text)
    except ValueError:
        return snippet(text)
    if isinstance(value, dict):
        error = value.get("error")
        message = error.get("message") if isinstance(error, dict) else None
        for found in (message, error, value.get("message")):
            if found is not None:
                return snippet(found if isinstance(found, str) else json.dumps(found))
    return snippet(text)


def refusal(response: Response, upstream: str = "the upstream") -> PluginError:
    """`refusal`: the error an answer outside 2xx means, mapped as the bundled plugins map it:
    401/403 unauthorized, 429 rate-limited (with Retry-After), 408/504 timeout, other 4xx
    invalid-input, anything else unavailable."""
    status = response.status
    detail = error_detail(response.body.decode("utf-8", errors="replace"))
    message = f"{upstream} answered HTTP {status}: {detail}"
    if status in (401, 403):
        return PluginError_Unauthorized(message)
    if status == 429:
        retry = next((v for k, v in response.headers if k.lower() == "retry-after"), None)
        return PluginError_RateLimited(RateLimit(retry_after_secs=retry_after_secs(retry), message=message))
    if status in (408, 504):
        return PluginError_Timeout(message)
    if 400 <= status < 500:
        return PluginError_InvalidInput(message)
    return PluginError_Unavailable(message)


def transport_failure(error: Err, url: str) -> PluginError:
    """The error `http_client.send` failed with (an `Err` holding a wasi:http `ErrorCode`), for `reply`."""
    code = type(error.value).__name__.removeprefix("ErrorCode_")
    if "Timeout" in code:
        return PluginError_Timeout(f"the request to {url} timed out: {code}")
    return PluginError_Unavailable(f"the request to {url} failed: {code}")


def json_request(
    url: str, value: Any, headers: Optional[List[Tuple[str, str]]] = None, timeout_ms: Optional[int] = None
) -> Request:
    """A POST `http_client.Request` with a JSON body."""
    body = json.dumps(value).encode("utf-8")
    return Request(
        method=Method_Post(),
        url=url,
        headers=[("content-type", "application/json")] + (headers or []),
        body=body,
        timeout_ms=timeout_ms,
    )


def sse(request: Request) -> StreamStart:
    """`start`'s answer for an upstream that streams server-sent events."""
    return StreamStart(request=request, framing=Framing.SERVER_SENT_EVENTS)


def ndjson(request: Request) -> StreamStart:
    """`start`'s answer for an upstream that streams one JSON document per line."""
    return StreamStart(request=request, framing=Framing.NDJSON)


def parse_json(text: str, upstream: str = "the upstream") -> dict:
    """Parses a JSON object the upstream sent, or fails with `bad-response`."""
    try:
        value = json.loads(text)
    except ValueError as e:
        raise Err(PluginError_BadResponse(f"{upstream} sent something that is not JSON ({e}): {snippet(text)}"))
    if not isinstance(value, dict):
        raise Err(PluginError_BadResponse(f"{upstream} sent JSON that is not an object: {snippet(text)}"))
    return value


def chat_messages(request: ChatRequest, system: Optional[str], max_history: int = 50) -> List[dict]:
    """The dialog as chat messages: the system prompt, the character's lines as the assistant's, the
    user's as the user's, a third speaker's as the user's with the name in front, then the new message."""
    out = [{"role": "system", "content": system}] if system else []
    for entry in request.history[-max_history:] if max_history > 0 else []:
        if entry.name == request.to_name:
            out.append({"role": "assistant", "content": entry.message})
        elif entry.name == request.from_name:
            out.append({"role": "user", "content": entry.message})
        else:
            out.append({"role": "user", "content": f"{entry.name}: {entry.message}"})
    out.append({"role": "user", "content": request.message})
    return out


# --- OpenAI-compatible chat completions ---


def openai_request(
    base_url: str,
    model_name: str,
    messages: List[dict],
    stream: bool,
    api_key: Optional[str] = None,
    generation: Optional[Generation] = None,
    timeout_ms: Optional[int] = None,
) -> Request:
    """The request for `{base_url}/chat/completions`, streamed or whole. `generation` (the client's
    `max-tokens`, `temperature`, … when streaming) is applied where it says something."""
    body: dict = {"model": model_name, "messages": messages, "stream": stream}
    if generation is not None:

        def f32(x: float) -> float:
            return float(f"{x:.7g}")  # 0.7 rather than 0.699999988079071

        if generation.max_tokens is not None:
            body["max_tokens"] = generation.max_tokens
        if generation.temperature is not None:
            body["temperature"] = f32(generation.temperature)
        if generation.top_p is not None:
            body["top_p"] = f32(generation.top_p)
        if generation.stop:
            body["stop"] = list(generation.stop)
        if generation.seed is not None:
            body["seed"] = generation.seed
        if generation.user is not None:
            body["user"] = generation.user
    headers = [("accept", "text/event-stream" if stream else "application/json")]
    if api_key:
        headers.append(("authorization", f"Bearer {api_key}"))
    return json_request(base_url.rstrip("/") + "/chat/completions", body, headers, timeout_ms)


def _count(value: Any) -> Optional[int]:
    """A token count as a u32, or None when it is absent or not a count."""
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value
    return min(value, 4294967295) if ok else None


def openai_events(events: List[str], upstream: str = "the upstream") -> List[StreamPart]:
    """`decode` for OpenAI's server-sent events: each `data` payload is a chunk
    `{"model", "choices": [{"delta": {"content"}, "finish_reason"}], "usage"}`, and the last is
    `[DONE]`. A chunk with a finish reason gives `done(reason)`, after its text and its usage when it
    has them; `[DONE]` gives `done()` for an upstream that never names a reason (the host stops at
    the first)."""
    parts: List[StreamPart] = []
    for event in events:
        if event.strip() == "[DONE]":
            parts.append(done())
            continue
        chunk = parse_json(event, upstream)
        if chunk.get("error"):
            raise Err(PluginError_Unavailable(f"{upstream} failed while streaming: {error_detail(event)}"))
        if isinstance(chunk.get("model"), str) and chunk["model"]:
            parts.append(model(chunk["model"]))
        choices = chunk.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
        content = (choice.get("delta") or {}).get("content")
        if isinstance(content, str) and content:
            parts.append(delta(content))
        counts = chunk.get("usage")
        if isinstance(counts, dict):
            parts.append(usage(_count(counts.get("prompt_tokens")), _count(counts.get("completion_tokens"))))
        if isinstance(choice.get("finish_reason"), str):
            parts.append(done(choice["finish_reason"]))
    return parts


def openai_reply(response: Response, upstream: str = "the upstream") -> str:
    """The reply in a whole (not streamed) completion, from `http_client.send`'s response."""
    if not 200 <= response.status <= 299:
        raise Err(refusal(response, upstream))
    text = response.body.decode("utf-8", errors="replace")
    choices = parse_json(text, upstream).get("choices")
    message = choices[0].get("message") if isinstance(choices, list) and choices and isinstance(choices[0], dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, str) or not content.strip():
        raise Err(PluginError_BadResponse(f"{upstream} sent no message: {snippet(text)}"))
    return content.strip()
