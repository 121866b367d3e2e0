//! A real PostgreSQL server on loopback for tests, started by `scripts/cluster.sh` (the script
//! operators start a cluster with), so the tests run the server exactly as documented. Shared by
//! the store's unit tests and the black-box tests (which include this file by path).
//!
//! The script stops the server by itself once the test process is gone, however it ended. Missing
//! server binaries fail the test with the script's message (run `scripts/setup.sh --tests`): no
//! PostgreSQL test is ever skipped silently.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

pub struct TestPostgres {
    dir: tempfile::TempDir,
    port: u16,
    /// The `parlance` database, as the role `parlance`.
    url: String,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/cluster.sh")
}

fn run(args: &[&str]) -> String {
    let out = Command::new("bash").arg(script()).args(args).output().expect("bash runs scripts/cluster.sh");
    assert!(
        out.status.success(),
        "scripts/cluster.sh {} failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

impl TestPostgres {
    /// Starts a server with its data in a fresh temp folder, on a free port.
    pub fn start() -> TestPostgres {
        let dir = tempfile::tempdir().expect("a temp folder");
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let path = dir.path().to_str().expect("a UTF-8 temp path").to_owned();
        let url = run(&["postgres", "start", &path, &port.to_string(), &std::process::id().to_string()]);
        TestPostgres { dir, port, url }
    }

    /// A new empty database, as its URL, so that tests sharing the server share nothing else.
    pub async fn fresh_database(&self) -> String {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let name = format!("t_{}_{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let (client, connection) =
            tokio_postgres::connect(&self.url, tokio_postgres::NoTls).await.expect("the test server answers");
        let task = tokio::spawn(connection);
        client.batch_execute(&format!("CREATE DATABASE {name} OWNER parlance")).await.unwrap();
        drop(client);
        let _ = task.await;
        format!("postgres://parlance:parlance@127.0.0.1:{}/{name}", self.port)
    }

    /// Stops the server (fast shutdown: sessions are ended).
    pub fn stop(&self) {
        run(&["postgres", "stop", self.path()]);
    }

    /// Starts the stopped server again, same port, same data.
    pub fn restart(&self) {
        run(&["postgres", "restart", self.path()]);
    }

    fn path(&self) -> &str {
        self.dir.path().to_str().unwrap_or_default()
    }
}

impl Drop for TestPostgres {
    fn drop(&mut self) {
        let _ = Command::new("bash").arg(script()).args(["postgres", "stop", self.path()]).output();
    }
}
