// `{{name}}`: a Parlance chat model in JavaScript. The character answers by repeating the user's
// message back; replace `reply` with a call to your model (`fetch` works, through the allow-list).

export const chatModel = {
  info() {
    return { name: '{{name}}' };
  },

  reply(request) {
    if (request.message.trim() === '') throw { tag: 'invalid-input', val: 'the message is empty' };
    return `${request.toName} heard you say: ${request.message.trim()}`;
  },
};
