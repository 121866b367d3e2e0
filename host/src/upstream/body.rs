//! A response body held to the exchange's limits: it fails once the upstream has sent more than the
//! size cap, so a hostile or broken upstream cannot make the host buffer without bound, and when the
//! upstream sends nothing for the between-bytes timeout while the reader is waiting for more.

use super::error::{BoxError, Failure, Phase, Stage, UpstreamError};
use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use http_body_util::BodyExt;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

/// The body of a response from [`super::Upstream::send`].
pub struct ResponseBody<B = hyper::body::Incoming> {
    inner: B,
    destination: Arc<str>,
    remaining: u64,
    limit: u64,
    between_bytes: Duration,
    /// Armed while the reader waits for the next frame; time the reader spends elsewhere is not the
    /// upstream's delay.
    stall: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<B> ResponseBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    pub(super) fn new(inner: B, destination: Arc<str>, limit: u64, between_bytes: Duration) -> Self {
        ResponseBody { inner, destination, remaining: limit, limit, between_bytes, stall: None }
    }

    /// The whole body.
    pub async fn bytes(self) -> Result<Bytes, UpstreamError> {
        Ok(self.collect().await?.to_bytes())
    }

    fn fail(&self, failure: Failure) -> Poll<Option<Result<Frame<Bytes>, UpstreamError>>> {
        Poll::Ready(Some(Err(UpstreamError::new(self.destination.clone(), failure))))
    }
}

impl<B> Body for ResponseBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = UpstreamError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, UpstreamError>>> {
        let frame = match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => frame,
            Poll::Ready(Some(Err(e))) => {
                let error = UpstreamError::classify(self.destination.clone(), e.into(), Stage::ReadingBody);
                return Poll::Ready(Some(Err(error)));
            }
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Pending => {
                let wait = self.between_bytes;
                let stall = self.stall.get_or_insert_with(|| Box::pin(tokio::time::sleep(wait)));
                return match stall.as_mut().poll(cx) {
                    Poll::Ready(()) => self.fail(Failure::Timeout(Phase::BetweenBytes)),
                    Poll::Pending => Poll::Pending,
                };
            }
        };
        self.stall = None;
        if let Some(data) = frame.data_ref() {
            let len = data.len() as u64;
            if len > self.remaining {
                return self.fail(Failure::TooLarge { limit: self.limit });
            }
            self.remaining -= len;
        }
        Poll::Ready(Some(Ok(frame)))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    fn body<B>(inner: B, limit: u64, between_bytes: Duration) -> ResponseBody<B>
    where
        B: Body<Data = Bytes> + Unpin,
        B::Error: Into<BoxError>,
    {
        ResponseBody::new(inner, "http://up:80".into(), limit, between_bytes)
    }

    #[tokio::test]
    async fn caps_the_body() {
        let full = http_body_util::Full::new(Bytes::from(vec![0u8; 64]));
        let err = body(full, 10, Duration::from_secs(1)).bytes().await.unwrap_err();
        assert_eq!(err.failure(), Failure::TooLarge { limit: 10 });
        assert_eq!(err.to_string(), "http://up:80: the response is larger than 10 bytes");
    }

    /// An upstream that sends its head and then nothing.
    struct Silent;

    impl Body for Silent {
        type Data = Bytes;
        type Error = Infallible;

        fn poll_frame(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            Poll::Pending
        }
    }

    #[tokio::test]
    async fn gives_up_on_a_silent_upstream_between_bytes() {
        let err = body(Silent, 10, Duration::from_millis(20)).bytes().await.unwrap_err();
        assert_eq!(err.failure(), Failure::Timeout(Phase::BetweenBytes));
    }
}
