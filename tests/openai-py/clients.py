"""The official OpenAI Python client (pinned in scripts/requirements-test.txt) against Parlance's
OpenAI-compatible surface, run by tests/openai_clients.rs with a server in front of a fake OpenAI
upstream. Every check raises on failure; the last line printed is a JSON summary for the Rust side.

Usage: clients.py BASE_URL KEY OTHER_CLIENT_KEY
"""

import json
import sys
import time

import openai

base_url, key, other_key = sys.argv[1:4]
client = openai.OpenAI(api_key=key, base_url=base_url, max_retries=0, timeout=30)
user = [{"role": "user", "content": "Hello there"}]
summary = {}


def expect(exception, call, status):
    try:
        call()
    except exception as e:
        assert e.status_code == status, (exception.__name__, e.status_code, e.body)
        assert isinstance(e.body, dict) and {"message", "type", "param", "code"} <= e.body.keys(), e.body
        return e
    raise AssertionError(f"{exception.__name__} was not raised")


# Models: every chat model, owned by its kind and component.
models = {m.id: m.owned_by for m in client.models.list()}
assert models["openai-chat"] == "chat-model builtin:openai-chat", models
assert client.models.retrieve("openai-chat").id == "openai-chat"
expect(openai.NotFoundError, lambda: client.models.retrieve("nope"), 404)

# Create, plain: the fake answers word0 … word4; usage as the upstream reported it.
completion = client.chat.completions.create(
    model="openai-chat",
    messages=[{"role": "system", "content": "Be brief."}, *user],
    max_tokens=50,
    temperature=0.5,
    top_p=0.9,
    stop=["END"],
    seed=7,
    n=1,
)
assert completion.object == "chat.completion", completion
assert completion.id.startswith("chatcmpl-"), completion.id
assert completion.choices[0].message.role == "assistant"
assert completion.choices[0].message.content == "word0 word1 word2 word3 word4 ", completion
assert completion.choices[0].finish_reason == "stop"
assert completion.usage.prompt_tokens == 11 and completion.usage.completion_tokens == 5, completion.usage
assert completion.usage.total_tokens == 16

# Text parts are joined.
parts = [{"role": "user", "content": [{"type": "text", "text": "Hello "}, {"type": "text", "text": "there"}]}]
assert client.chat.completions.create(model="openai-chat", messages=parts).choices[0].message.content

# Streaming, with usage in a last chunk of its own.
started = time.monotonic()
stream = client.chat.completions.create(
    model="openai-chat", messages=user, stream=True, stream_options={"include_usage": True}
)
chunks = list(stream)
text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
assert text == "word0 word1 word2 word3 word4 ", chunks
assert chunks[0].choices[0].delta.role == "assistant"
assert all(c.object == "chat.completion.chunk" and c.id == chunks[0].id for c in chunks)
finish = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
assert finish == ["stop"], finish
assert chunks[-1].choices == [] and chunks[-1].usage.completion_tokens == 5, chunks[-1]
summary["stream_secs"] = time.monotonic() - started

# Streaming without include_usage: no usage anywhere.
chunks = list(client.chat.completions.create(model="openai-chat", messages=user, stream=True))
assert all(c.usage is None for c in chunks) and chunks[-1].choices, chunks[-1]

# A failure after the first chunk is an error, not a short success.
stream = client.chat.completions.create(
    model="openai-chat", messages=[{"role": "user", "content": "DIE please"}], stream=True
)
seen = []
try:
    for chunk in stream:
        seen.append(chunk)
    raise AssertionError("a stream cut off by its upstream ended as a success")
except openai.APIError as e:
    assert seen and e.body and e.body.get("code"), (seen, e.body)
    summary["cut_off_code"] = e.body["code"]

# A disconnect mid-stream: read two chunks of a long reply, then close.
stream = client.chat.completions.create(
    model="openai-chat", messages=[{"role": "user", "content": "LONG story"}], stream=True
)
for i, _ in enumerate(stream):
    if i == 1:
        break
stream.close()
summary["closed_at"] = time.time()

# Each typed exception, with OpenAI's error body.
expect(openai.BadRequestError, lambda: client.chat.completions.create(model="openai-chat", messages=user, n=2), 400)
image = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "http://example.com/a.png"}}]}]
e = expect(openai.BadRequestError, lambda: client.chat.completions.create(model="openai-chat", messages=image), 400)
assert e.body["param"] == "messages[0].content[0].type", e.body
tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
expect(openai.BadRequestError, lambda: client.chat.completions.create(model="openai-chat", messages=user, tools=tools), 400)
e = expect(openai.NotFoundError, lambda: client.chat.completions.create(model="nope", messages=user), 404)
assert e.code == "model_not_found" and e.body["type"] == "invalid_request_error", e.body
bad = openai.OpenAI(api_key="prl_wrong", base_url=base_url, max_retries=0)
e = expect(openai.AuthenticationError, lambda: bad.models.list(), 401)
assert e.body["type"] == "authentication_error", e.body
mismatch = openai.OpenAI(api_key=key, base_url=base_url, max_retries=0, default_headers={"current-user": "someone-else"})
expect(openai.PermissionDeniedError, lambda: mismatch.chat.completions.create(model="openai-chat", messages=user), 403)
# Stored dialogs: a `user` that cannot name a stored user is 422; a full dialog is 409.
expect(openai.UnprocessableEntityError, lambda: client.chat.completions.create(model="openai-chat", messages=user, user="a/b"), 422)
for _ in range(2):
    client.chat.completions.create(model="openai-chat", messages=user, user="py-full")
expect(openai.ConflictError, lambda: client.chat.completions.create(model="openai-chat", messages=user, user="py-full"), 409)
# The upstream refused Parlance's credentials: a server-side failure, 502.
expect(openai.InternalServerError, lambda: client.chat.completions.create(model="openai-chat", messages=[{"role": "user", "content": "FAIL401"}]), 502)
e = expect(openai.InternalServerError, lambda: client.chat.completions.create(model="keyless", messages=user), 503)
assert e.code == "model_unavailable", e.body
# The rate limit of this key's client: one call a minute to `limited`; another client keeps its own.
client.chat.completions.create(model="limited", messages=user)
e = expect(openai.RateLimitError, lambda: client.chat.completions.create(model="limited", messages=user), 429)
assert int(e.response.headers["retry-after"]) >= 1, e.response.headers
other = openai.OpenAI(api_key=other_key, base_url=base_url, max_retries=0)
assert other.chat.completions.create(model="limited", messages=user).choices[0].message.content

# Stored: this client's user has the exchange, with contiguous indices.
client.chat.completions.create(model="openai-chat", messages=user, user="py-user")
list(client.chat.completions.create(model="openai-chat", messages=user, user="py-user", stream=True))

print(json.dumps(summary))
