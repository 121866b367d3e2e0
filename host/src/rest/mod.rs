//! The kit every REST route uses: extractors whose rejections are this API's JSON errors and the
//! caller's identity (`extract`), the status and body of every error (`error`), and helpers that write
//! a configuration's limits into a domain's OpenAPI fragment (`openapi`). Domains build their routes
//! from it; `http` assembles them.

pub mod error;
pub mod extract;
pub mod openapi;
pub mod sse;
pub mod strict;

pub use error::{ApiError, ErrorBody, ErrorDetail};
pub use extract::{Caller, Form, Json, Path, Query};
