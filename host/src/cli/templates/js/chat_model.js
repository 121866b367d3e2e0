// `{{name}}`: a Parlance chat model in JavaScript that can stream its reply (world
// `{{world}}`).
//
// Without settings the character answers by repeating the user's message back, so `./test.sh` works
// offline. With `--config base_url=https://…/v1 --config model=…` (and `api_key` if the API wants
// one) it asks an OpenAI-compatible chat-completions API instead:
//
// - `chatModel.reply` asks for the whole reply in one request (`http-client.send`; `fetch` works too).
// - `chatStream` streams it, sans-IO: `start` returns the request and its framing, and the host sends
//   it, splits the answer into server-sent events and hands each batch to `decode`, which turns them
//   into parts (`delta`, `model`, `usage`, `done`); an answer outside 2xx goes to `refusal`. Each call
//   may run in a fresh instance, so nothing is kept between them. Streaming needs an upstream: without
//   `base_url`, `start` fails with `misconfigured`.
//
// src/parlance_stream.js holds the reusable part; replace its OpenAI functions for another protocol.
// Throw a `plugin-error` value ({ tag: 'unavailable', val: 'why' }, …) to fail a call.

import { config } from 'parlance:plugin/host@{{version}}';
import { send } from 'parlance:plugin/http-client@{{version}}';
import { chatMessages, openAiEvents, openAiReply, openAiRequest, pluginError, refusal, sse, transportFailure } from './parlance_stream.js';

const UPSTREAM = '{{name}}\'s upstream';

function checkMessage(request) {
  if (request.message.trim() === '') throw pluginError('invalid-input', 'the message is empty');
}

// The upstream request, or undefined when no `base_url` is set.
function upstreamRequest(request, stream, generation) {
  const baseUrl = config('base_url');
  if (!baseUrl) return undefined;
  const system = `You are ${request.toName}, talking with ${request.fromName}. Answer with ${request.toName}'s next line only.`;
  return openAiRequest({
    baseUrl,
    apiKey: config('api_key'),
    model: config('model') ?? 'gpt-4o-mini',
    messages: chatMessages(request, system),
    stream,
    generation,
    timeoutMs: 60000,
  });
}

export const chatModel = {
  info() {
    return { name: '{{name}}' };
  },

  reply(request) {
    checkMessage(request);
    const upstream = upstreamRequest(request, false);
    if (!upstream) return `${request.toName} heard you say: ${request.message.trim()}`;
    let response;
    try {
      response = send(upstream);
    } catch (e) {
      throw transportFailure(e, upstream.url);
    }
    return openAiReply(response, UPSTREAM);
  },
};

export const chatStream = {
  start(request, generation) {
    checkMessage(request);
    const upstream = upstreamRequest(request, true, generation);
    if (!upstream) throw pluginError('misconfigured', 'streaming needs an upstream: set `base_url` (and `model`)');
    return sse(upstream);
  },

  decode(events) {
    return openAiEvents(events, UPSTREAM);
  },

  refusal(response) {
    return refusal(response, UPSTREAM);
  },
};
