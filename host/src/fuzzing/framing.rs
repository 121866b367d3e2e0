//! Server-sent events and NDJSON from an upstream, framed by the host for a sandboxed chat model
//! (`plugins::Framer`): the same events however the body is split into reads (where the input says,
//! a byte at a time, and a byte at a time with an empty read after each), a multi-byte character, a
//! line or a CRLF cut anywhere.

use crate::plugins::api::Framing;
use crate::plugins::{Event, Framer};

/// The input: a first byte (bit 0, the framing: SSE or NDJSON; bits 1 to 4, how many cuts), then
/// that many bytes, each the length of one read (0 for an empty one), then the body.
pub fn check(data: &[u8]) {
    let Some((&head, rest)) = data.split_first() else { return };
    let framing = if head & 1 == 0 { Framing::ServerSentEvents } else { Framing::Ndjson };
    let (reads, body) = rest.split_at(usize::from(head >> 1 & 0x0f).min(rest.len()));
    let whole = frame(framing, [body]);

    let mut chunks = Vec::new();
    let mut at = 0;
    for &read in reads {
        let end = (at + usize::from(read)).min(body.len());
        chunks.push(&body[at..end]);
        at = end;
    }
    chunks.push(&body[at..]);
    assert_eq!(frame(framing, chunks.iter().copied()), whole, "{framing:?} split as {chunks:?}");
    assert_eq!(frame(framing, body.chunks(1)), whole, "{framing:?} a byte at a time");
    // An upstream's body may hand over empty frames too.
    let with_empty: Vec<&[u8]> = body.chunks(1).flat_map(|byte| [byte, &[][..]]).collect();
    assert_eq!(frame(framing, with_empty), whole, "{framing:?} a byte at a time, an empty read after each");

    for event in whole.iter().flatten() {
        assert!(!event.contains('\r'), "a line break inside the event {event:?}");
        if framing == Framing::Ndjson {
            assert!(!event.contains('\n') && !event.trim().is_empty(), "an NDJSON line {event:?}");
        }
    }
}

fn frame<'a>(framing: Framing, reads: impl IntoIterator<Item = &'a [u8]>) -> Vec<Event> {
    let mut framer = Framer::new(framing);
    let mut events = Vec::new();
    for read in reads {
        framer.push(read, &mut events);
    }
    framer.finish(&mut events);
    events
}
