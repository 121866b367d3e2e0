//! The real binary serving its APIs on free loopback ports, and a real `redis-server`.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `parlance --mode api` on two free ports, killed when dropped.
pub struct Server {
    pub api: SocketAddr,
    pub chat: SocketAddr,
    pub home: tempfile::TempDir,
    child: Child,
    pub client: reqwest::Client,
}

impl Server {
    /// The job that `created` (the answer of `POST /paraphrase/batch/async`) made, once it has
    /// completed, read as `client`; fails after `within`.
    pub async fn job_completed(
        &self,
        created: &serde_json::Value,
        client: Option<&str>,
        within: Duration,
    ) -> serde_json::Value {
        let url = self.url(&format!("/jobs/{}", created["job_id"].as_str().expect("a job id")));
        let started = Instant::now();
        loop {
            let mut request = self.client.get(&url);
            if let Some(client) = client {
                request = request.header("current-user", client);
            }
            let view: serde_json::Value = request.send().await.unwrap().json().await.unwrap();
            if view["status"] == "completed" {
                return view;
            }
            assert!(started.elapsed() < within, "the job did not complete: {view}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Starts with a memory cache, a database in the server's own home, and `env` on top.
    pub async fn start(env: &[(&str, &str)]) -> Server {
        Server::start_in(tempfile::tempdir().unwrap(), env, &[]).await
    }

    pub async fn start_in(home: tempfile::TempDir, env: &[(&str, &str)], args: &[&str]) -> Server {
        Server::start_wrapped(home, env, args, &[]).await
    }

    /// [`Server::start_in`] through a wrapper command (`sh -c 'ulimit …; exec "$0" "$@"'`), which gets
    /// the binary and its arguments after its own.
    pub async fn start_wrapped(
        home: tempfile::TempDir,
        env: &[(&str, &str)],
        args: &[&str],
        wrapper: &[&str],
    ) -> Server {
        let (api_port, chat_port) = (free_port(), free_port());
        let mut cmd = super::command(home.path());
        if let [program, wrapper_args @ ..] = wrapper {
            let binary = cmd.get_program().to_owned();
            let mut wrapped = std::process::Command::new(program);
            wrapped.args(wrapper_args).arg(binary).current_dir(home.path());
            wrapped
                .env_clear()
                .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k.to_owned(), v.to_owned()))));
            cmd = wrapped;
        }
        cmd.env("API_HOST", "127.0.0.1")
            .env("PORT", chat_port.to_string())
            .env("DATABASE_FILE", home.path().join("dialogs.db"))
            .args(["--mode", "api", "--port", &api_port.to_string()])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = cmd.spawn().unwrap();
        let api: SocketAddr = format!("127.0.0.1:{api_port}").parse().unwrap();
        let chat: SocketAddr = format!("127.0.0.1:{chat_port}").parse().unwrap();
        let client = reqwest::Client::builder().timeout(Duration::from_secs(60)).build().unwrap();
        let mut server = Server { api, chat, home, child, client };
        server.wait_ready().await;
        server
    }

    async fn wait_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                let mut stderr = String::new();
                if let Some(mut e) = self.child.stderr.take() {
                    use std::io::Read;
                    let _ = e.read_to_string(&mut stderr);
                }
                panic!("the server exited with {status}: {stderr}");
            }
            let ready = async {
                let api = self.client.get(self.url("/health")).send().await.ok()?;
                let chat = self.client.get(self.chat_url("/v1/server/status")).send().await.ok()?;
                (api.status().is_success() && chat.status().is_success()).then_some(())
            };
            if ready.await.is_some() {
                return;
            }
            assert!(Instant::now() < deadline, "the server did not become ready");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.api)
    }

    pub fn chat_url(&self, path: &str) -> String {
        format!("http://{}{path}", self.chat)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Ends the process abruptly, as a crash would.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// Kills the process (as [`Server::kill`]) and keeps its home, for a server started in it again.
    pub fn killed_home(mut self) -> tempfile::TempDir {
        self.kill();
        std::mem::replace(&mut self.home, tempfile::tempdir().unwrap())
    }

    /// Stops the process as an orchestrator does (SIGTERM), and waits for it to exit.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let sent = std::process::Command::new("kill").args(["-TERM", &self.pid().to_string()]).status();
        assert!(sent.unwrap().success());
        self.child.wait().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A `redis-server` on a free port, with no persistence, stopped when dropped.
pub struct Redis {
    pub port: u16,
    child: Child,
    _dir: tempfile::TempDir,
}

impl Redis {
    pub async fn start() -> Redis {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let child = spawn_redis(port, dir.path());
        wait_for_port(port).await;
        Redis { port, child, _dir: dir }
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Starts a stopped server again on the same port (empty: it keeps nothing).
    pub async fn restart(&mut self) {
        self.stop();
        self.child = spawn_redis(self.port, self._dir.path());
        wait_for_port(self.port).await;
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
    }
}

fn spawn_redis(port: u16, dir: &Path) -> Child {
    std::process::Command::new(redis_server())
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("redis-server must be installed (scripts/setup.sh --tests installs it)")
}

async fn wait_for_port(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "redis-server did not start");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn redis_server() -> PathBuf {
    ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .unwrap_or_else(|| PathBuf::from("redis-server"))
}
