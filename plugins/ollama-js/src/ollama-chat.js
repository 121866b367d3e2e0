// `ollama-chat`: a chat model for Ollama's native `POST /api/chat`, written in JavaScript and built
// into a component with componentize-js (world `probed-streaming-chat-model-plugin`,
// parlance:plugin@0.1.4). The genre, the character and the situation become the system prompt; the
// dialog becomes user and assistant turns, as `openai-chat` maps it.
//
// - `chatModel.reply` asks for the whole reply (`"stream": false`) with `fetch`, which runs on
//   wasi:http, so the request passes the host's allow-list, timeout and size cap.
// - `chatStream` streams it sans-IO: `start` builds the request (`"stream": true`, framed as NDJSON),
//   the host sends it and hands each batch of lines to `decode`, which turns them into parts of the
//   reply; an answer outside 2xx goes to `refusal`, which says what it means.
// - `probe.check` asks `GET /api/tags` whether Ollama answers and has the model.
//
// Settings: `base_url` (default http://localhost:11434), `model` (default llama3.2), `system_prompt`
// with the placeholders `{character}`, `{user}`, `{genre}` and `{situation}`, `max_history` (most
// recent entries sent, default 50), `temperature`, `max_tokens` (Ollama's `num_predict`) and
// `timeout_ms` (this plugin's own limit on one request, default 60000; the host's limits still apply,
// and the shorter wins). A streamed request's `generation` overrides `temperature` and `max_tokens`,
// and adds `top_p`, `stop` and `seed`.
//
// The protocol itself is in `ollama-chat-protocol.js` and the parts shared with the provider
// (`ollama.js`) in `common.js`; both import nothing from the host, so Node tests them.

import { config } from 'parlance:plugin/host@0.1.4';
import { DEFAULT_MODEL, exchange, failure, probeModel, settings } from './common.js';
import { body, chatSettings, decode, messages, refusal, replyText, streamStart } from './ollama-chat-protocol.js';

const s = settings(config);

function checkMessage(request) {
  if (request.message.trim() === '') throw failure('invalid-input', 'the message is empty');
}

export const chatModel = {
  info() {
    return { name: 'Ollama (native /api/chat)' };
  },

  async reply(request) {
    checkMessage(request);
    const chat = chatSettings(s);
    const text = body(chat.model, messages(request, chat.systemPrompt, chat.maxHistory), false, chat.options);
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: text,
    };
    const { answer, raw } = await exchange(chat.url, init, chat.timeoutMs);
    return replyText(answer, raw);
  },
};

export const chatStream = {
  start(request, generation) {
    checkMessage(request);
    return streamStart(chatSettings(s), request, generation);
  },

  decode(events) {
    return decode(events);
  },

  refusal(response) {
    return refusal(response);
  },
};

export const probe = {
  check() {
    return probeModel(s, s.get('model', DEFAULT_MODEL));
  },
};
