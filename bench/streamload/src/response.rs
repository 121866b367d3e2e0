//! Incremental parse of one HTTP/1.1 response as the Python driver's `Response` does it: head, then a
//! chunked, sized or close-delimited body, read as server-sent events when `sse`, with the
//! `w<i>@<ns> ` stamps turned into relay lags at the moment of the read.

use memchr::memmem;

#[derive(Default)]
pub struct Response {
    sse: bool,
    buf: Vec<u8>,
    pub status: Option<u16>,
    /// Lower-cased names.
    pub headers: Vec<(String, String)>,
    head_done: bool,
    chunked: bool,
    length: Option<usize>,
    /// Bytes of the current chunk still to read, its CRLF included.
    chunk_left: Option<usize>,
    /// De-chunked, not yet consumed by the SSE parser.
    body: Vec<u8>,
    /// The whole body of a response not read as events.
    pub whole: Vec<u8>,
    pub complete: bool,
    pub deltas: u64,
    pub first_ns: Option<u64>,
    /// (chunk index, read ns - stamp ns)
    pub stamps: Vec<(u64, i64)>,
    pub done: bool,
    pub done_data: Option<Vec<u8>>,
    pub error: Option<String>,
    pub comments: u64,
}

impl Response {
    pub fn new(sse: bool) -> Self {
        Self { sse, ..Self::default() }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        // The Python keeps a dict: the last of a repeated header wins.
        self.headers.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn feed(&mut self, data: &[u8], now: u64) -> Result<(), String> {
        self.buf.extend_from_slice(data);
        if !self.head_done {
            let Some(end) = memmem::find(&self.buf, b"\r\n\r\n") else {
                return Ok(());
            };
            let head = String::from_utf8_lossy(&self.buf[..end]).into_owned();
            self.buf.drain(..end + 4);
            let mut lines = head.split("\r\n");
            let status_line = lines.next().unwrap_or("");
            let status = status_line
                .split(' ')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| format!("ValueError: bad status line {status_line:?}"))?;
            self.status = Some(status);
            for line in lines {
                let (name, value) = line.split_once(':').unwrap_or((line, ""));
                self.headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
            }
            self.head_done = true;
            self.chunked =
                self.header("transfer-encoding").is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
            if !self.chunked
                && let Some(len) = self.header("content-length")
            {
                self.length = Some(len.parse().map_err(|_| format!("ValueError: content-length {len:?}"))?);
            }
        }
        if self.chunked {
            self.dechunk()?;
        } else {
            self.body.append(&mut self.buf);
            if self.length.is_some_and(|len| self.body.len() + self.whole.len() >= len) {
                self.complete = true;
            }
        }
        if self.sse && self.status == Some(200) {
            self.events(now);
        } else {
            self.whole.append(&mut self.body);
        }
        Ok(())
    }

    pub fn eof(&mut self, now: u64) {
        if !self.chunked && self.length.is_none() && self.head_done {
            self.complete = true;
        }
        if self.sse {
            self.events(now);
        }
    }

    fn dechunk(&mut self) -> Result<(), String> {
        let buf = &self.buf;
        let mut pos = 0;
        loop {
            let left = match self.chunk_left {
                Some(left) => left,
                None => {
                    let Some(end) = memmem::find(&buf[pos..], b"\r\n").map(|e| e + pos) else {
                        break;
                    };
                    let line = &buf[pos..end];
                    let digits = line.split(|&b| b == b';').next().unwrap_or(line);
                    let digits = std::str::from_utf8(digits).unwrap_or("").trim();
                    let size = usize::from_str_radix(digits, 16)
                        .map_err(|_| format!("ValueError: chunk size {digits:?}"))?;
                    if size == 0 {
                        // The last chunk: no trailers are expected, only the final CRLF.
                        if buf.len() - (end + 2) >= 2 {
                            pos = end + 4;
                            self.complete = true;
                        }
                        break;
                    }
                    pos = end + 2;
                    size + 2
                }
            };
            let take = left.min(buf.len() - pos);
            if take == 0 {
                self.chunk_left = Some(left);
                break;
            }
            let left = left - take;
            // The part of the chunk's CRLF that this piece holds is not data.
            let data_end = pos + take - 2usize.saturating_sub(left).min(take);
            self.body.extend_from_slice(&buf[pos..data_end]);
            pos += take;
            self.chunk_left = if left == 0 { None } else { Some(left) };
        }
        self.buf.drain(..pos);
        Ok(())
    }

    fn events(&mut self, now: u64) {
        let mut start = 0;
        while let Some(end) = memmem::find(&self.body[start..], b"\n\n").map(|e| e + start) {
            let block = &self.body[start..end];
            start = end + 2;
            if block.starts_with(b":") {
                self.comments += 1;
                continue;
            }
            let mut name: &[u8] = b"message";
            let mut data = Vec::new();
            for line in block.split(|&b| b == b'\n') {
                if let Some(rest) = line.strip_prefix(b"event:") {
                    name = rest.trim_ascii();
                } else if let Some(rest) = line.strip_prefix(b"data:") {
                    data.extend_from_slice(rest.trim_ascii());
                }
            }
            if name == b"done" {
                self.done = true;
                self.done_data = Some(data);
            } else if name == b"error" {
                self.error = Some(String::from_utf8_lossy(&data[..data.len().min(300)]).into_owned());
            } else if data == b"[DONE]" {
                self.done = true;
            } else {
                let found = stamps(&data);
                if !found.is_empty() {
                    self.first_ns.get_or_insert(now);
                    self.deltas += 1;
                    self.stamps
                        .extend(found.into_iter().map(|(index, stamp)| (index, now as i64 - stamp as i64)));
                }
            }
        }
        self.body.drain(..start);
    }
}

/// Every `w<i>@<ns> ` in `data`, left to right, as the regex `w(\d+)@(\d+) ` finds them.
pub fn stamps(data: &[u8]) -> Vec<(u64, u64)> {
    fn digits(data: &[u8], at: usize) -> Option<(u64, usize)> {
        let n = data[at..].iter().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        let value = std::str::from_utf8(&data[at..at + n]).ok()?.parse().ok()?;
        Some((value, at + n))
    }
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(w) = memchr::memchr(b'w', &data[pos..]).map(|w| w + pos) {
        pos = w + 1;
        let Some((index, at)) = digits(data, w + 1) else { continue };
        if data.get(at) != Some(&b'@') {
            continue;
        }
        let Some((stamp, at)) = digits(data, at + 1) else { continue };
        if data.get(at) != Some(&b' ') {
            continue;
        }
        out.push((index, stamp));
        pos = at + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `body` as one HTTP chunk.
    fn chunk(body: &str) -> String {
        format!("{:x}\r\n{body}\r\n", body.len())
    }

    /// A Parlance stream as it comes off the socket: chunked, a comment, two deltas, a done event.
    fn parlance() -> Vec<u8> {
        let mut s =
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
                .to_string();
        s += &chunk(": keep-on\n\n");
        s += &chunk("event: delta\ndata: {\"text\":\"w0@1000 \"}\n\n");
        s += &chunk("event: delta\ndata: {\"text\":\"w1@2000 \"}\n\n");
        s += &chunk("event: done\ndata: {\"indices\":[3,4],\"x\":1}\n\n");
        s += "0\r\n\r\n";
        s.into_bytes()
    }

    fn parse_in_pieces(bytes: &[u8], piece: usize) -> Response {
        let mut r = Response::new(true);
        for (n, part) in bytes.chunks(piece).enumerate() {
            r.feed(part, 5000 + n as u64).unwrap();
        }
        r
    }

    #[test]
    fn parlance_events_whole_and_byte_by_byte() {
        let bytes = parlance();
        let whole = parse_in_pieces(&bytes, bytes.len());
        assert!(whole.complete && whole.done);
        assert_eq!((whole.deltas, whole.comments), (2, 1));
        assert_eq!(whole.stamps, vec![(0, 4000), (1, 3000)]);
        assert_eq!(whole.done_data.as_deref(), Some(&b"{\"indices\":[3,4],\"x\":1}"[..]));
        // Read a byte at a time, each event is seen at the read that completes it.
        let split = parse_in_pieces(&bytes, 1);
        assert!(split.complete && split.done);
        assert_eq!((split.deltas, split.comments), (2, 1));
        // The read of the second newline after the first stamp, the event's last byte.
        let end_of_first = bytes.windows(7).position(|w| w == b"1000 \"}").unwrap() + 8;
        assert_eq!(split.stamps[0], (0, 5000 + end_of_first as i64 - 1000));
    }

    #[test]
    fn openai_chunks_and_done() {
        let body = b"data: {\"choices\":[{\"delta\":{\"content\":\"w0@10 \",\"role\":\"assistant\"}}]}\n\n\
            data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
        let mut bytes =
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n".to_vec();
        bytes.extend_from_slice(format!("{:x}\r\n", body.len()).as_bytes());
        bytes.extend_from_slice(body);
        bytes.extend_from_slice(b"\r\n0\r\n\r\n");
        let r = parse_in_pieces(&bytes, 13);
        assert!(r.complete && r.done && r.done_data.is_none());
        assert_eq!(r.deltas, 1);
        assert_eq!(r.header("connection"), Some("close"));
    }

    #[test]
    fn sized_body_not_sse() {
        let mut r = Response::new(false);
        r.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", 1).unwrap();
        assert!(!r.complete);
        r.feed(b"lo", 2).unwrap();
        assert!(r.complete);
        assert_eq!(r.whole, b"hello");
    }

    #[test]
    fn stamps_as_the_regex_finds_them() {
        assert_eq!(stamps(b"ww1@2 w@3 w4@x w5@6w7@8 w9@10 "), vec![(1, 2), (7, 8), (9, 10)]);
    }
}
