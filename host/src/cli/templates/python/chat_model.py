"""`{{name}}`: a Parlance chat model in Python that can stream its reply (world `{{world}}`).

Without settings the character answers by repeating the user's message back, so `./test.sh` works
offline. With `--config base_url=https://…/v1 --config model=…` (and `api_key` if the API wants one)
it asks an OpenAI-compatible chat-completions API instead:

- `ChatModel.reply` asks for the whole reply in one request (`http_client.send`).
- `ChatStream` streams it, sans-IO: `start` returns the request and its framing, and the host sends
  it, splits the answer into server-sent events and hands each batch to `decode`, which turns them
  into parts (`delta`, `model`, `usage`, `done`); an answer outside 2xx goes to `refusal`. Each call
  may run in a fresh instance, so nothing is kept between them. Streaming needs an upstream: without
  `base_url`, `start` fails with `misconfigured`.

parlance_stream.py holds the reusable part; replace its OpenAI functions for another protocol. Raise
`Err(PluginError_…("why"))` to fail a call."""

import gc
from typing import List, Optional

from componentize_py_types import Err
from wit_world import exports
from wit_world.exports.chat_model import ChatRequest, ModelInfo
from wit_world.exports import chat_stream
from wit_world.exports.chat_stream import Generation, StreamPart, StreamStart
from wit_world.imports import host, http_client
from wit_world.imports.http_client import Request, Response
from wit_world.imports.parlance_plugin_types import (
    PluginError,
    PluginError_InvalidInput,
    PluginError_Misconfigured,
)

import parlance_stream

UPSTREAM = "{{name}}'s upstream"


def check_message(request: ChatRequest) -> None:
    if not request.message.strip():
        raise Err(PluginError_InvalidInput("the message is empty"))


def upstream_request(request: ChatRequest, stream: bool, generation: Optional[Generation] = None) -> Optional[Request]:
    """The upstream request, or None when no `base_url` is set."""
    base_url = host.config("base_url")
    if not base_url:
        return None
    system = f"You are {request.to_name}, talking with {request.from_name}. Answer with {request.to_name}'s next line only."
    return parlance_stream.openai_request(
        base_url,
        host.config("model") or "gpt-4o-mini",
        parlance_stream.chat_messages(request, system),
        stream,
        api_key=host.config("api_key"),
        generation=generation,
        timeout_ms=60000,
    )


class ChatModel(exports.ChatModel):
    def info(self) -> ModelInfo:
        return ModelInfo(name="{{name}}")

    def reply(self, request: ChatRequest) -> str:
        check_message(request)
        upstream = upstream_request(request, stream=False)
        if upstream is None:
            return f"{request.to_name} heard you say: {request.message.strip()}"
        try:
            response = http_client.send(upstream)
        except Err as e:
            raise Err(parlance_stream.transport_failure(e, upstream.url))
        return parlance_stream.openai_reply(response, UPSTREAM)


class ChatStream(exports.ChatStream):
    # `chat-stream` declares its own request record, with the same fields as `chat-model`'s.
    def start(self, request: chat_stream.ChatRequest, generation: Generation) -> StreamStart:
        check_message(request)
        upstream = upstream_request(request, stream=True, generation=generation)
        if upstream is None:
            raise Err(PluginError_Misconfigured("streaming needs an upstream: set `base_url` (and `model`)"))
        return parlance_stream.sse(upstream)

    def decode(self, events: List[str]) -> List[StreamPart]:
        return parlance_stream.openai_events(events, UPSTREAM)

    def refusal(self, response: Response) -> PluginError:
        return parlance_stream.refusal(response, UPSTREAM)


# Every instance is made from the memory snapshot taken once this module is imported.
# Freezing moves the snapshot's objects out of the cycle collector's reach: otherwise a collection
# during a call walks the whole interpreter heap, and each page it writes to is copied. A metric's
# 100-pair call took about a fifth less time frozen; what a call allocates is still collected.
gc.freeze()
